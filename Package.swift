// swift-tools-version:6.2
import PackageDescription

// Layers point one way only (A ← B: B imports A):
//   TodoModel ← TodoViewState ← TodoViewModels ← TodoStorage, TodoPostgres
//   TodoModel ← TodoViewState ← TodoProtocol ← TodoClient ← todoctl, TodoWeb, TodoSyncService
//   TodoViewModels, TodoProtocol, TodoStorage ← TodoDaemon ← todod (with TodoPostgres)
// TodoViewState holds what a view looks like on the wire (rows, a list's
// state and its changes, reminders, filter and sort), as plain values; the
// view models compute them, the protocol carries them, and clients link
// them without the view models' logic. The view models do no I/O: they start
// from a snapshot and say what to write. TodoStorage (GRDB) and TodoPostgres
// store what they say and are used by the daemon's state owner only, the one
// place that talks to the store; `todod` picks which. BuildInfo (the release
// number and the commit built) depends on nothing of the package.
let package = Package(
    name: "todod",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "todod", targets: ["todod"]),
        .executable(name: "todoctl", targets: ["todoctl"]),
        .executable(name: "todod-sync", targets: ["todod-sync"]),
        .executable(name: "todod-web", targets: ["todod-web"]),
        // For the benchmarks' nested package (Benchmarks/Package.swift), which
        // can only reach this package's modules through products: exactly the
        // modules the benchmarks import, and nothing else.
        .library(name: "TodoModel", targets: ["TodoModel"]),
        .library(name: "TodoViewState", targets: ["TodoViewState"]),
        .library(name: "TodoViewModels", targets: ["TodoViewModels"]),
        .library(name: "TodoStorage", targets: ["TodoStorage"]),
        .library(name: "TodoProtocol", targets: ["TodoProtocol"]),
        // A test helper, not an API: todod-shared-bench makes its throwaway
        // PostgreSQL cluster the way the tests do.
        .library(name: "PostgresTestSupport", targets: ["PostgresTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // HTTPS for the CalDAV sync (todod-sync only): SwiftNIO's client,
        // with TLS through swift-nio-ssl, which postgres-nio brings already.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The page in a browser (todod-web only): HTTP and WebSocket on SwiftNIO.
        // Without its default traits: FullFoundation would link Foundation and
        // ICU (about 40 MB) for form dates todod-web never reads.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // libsystemd, found through pkg-config; Debian's libsystemd-dev provides it.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .target(
            name: "SystemdSupport",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")]
        ),
        // Freedesktop notifications over sd-bus, for `todoctl notify`.
        .target(name: "DesktopNotifications", dependencies: ["CSystemd"]),

        // What was built: the release number, and the git commit (written before
        // each build by the plugin), for --version and the daemon's greeting.
        .plugin(name: "BuildCommitPlugin", capability: .buildTool(), path: "Sources/BuildCommitPlugin"),
        .target(name: "BuildInfo", plugins: ["BuildCommitPlugin"]),

        .target(name: "TodoModel"),
        // A view's wire shape as plain values: rows, a list's properties, state
        // and change sets, reminders, filter, sort. Without the view models'
        // logic, so that todoctl and the web relay link these and not it.
        .target(name: "TodoViewState", dependencies: ["TodoModel"]),
        // JSON with sorted keys, written as values encode themselves: the bytes
        // of every reply, event and stored undo step.
        .target(name: "CanonicalJSON"),
        // RFC 3986 percent-encoding by bytes, for the two kinds of URL todod
        // takes apart: CalDAV hrefs and postgres:// store URLs.
        .target(name: "PercentEncoding"),
        // Where a user's files are (the XDG base directories) and how its
        // key = value settings files read: one rule for todod.conf, web.conf
        // and sync.conf, shared by every program.
        .target(name: "UserFiles"),
        // What a store of the list is, whichever keeps it: the calls the owner
        // makes (`ListStore`, `LocalListStore`), what they answer and how they
        // fail. Without GRDB or PostgresNIO, so that the owner's logic and the
        // PostgreSQL store link neither SQLite nor each other.
        .target(name: "TodoStoreInterface", dependencies: ["TodoViewModels"]),
        // The SQLite store: a list of this instance's own, through GRDB.
        .target(
            name: "TodoStorage",
            dependencies: [
                "TodoModel", "TodoViewState", "TodoViewModels", "TodoStoreInterface", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for what GRDB does not wrap: a read-only check
                // before opening, keeping the WAL files (SQLITE_FCNTL_PERSIST_WAL).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // What a store several instances share must do (`SharedListStore`): its
        // commits and reads complete on the state owner's event loop, so it
        // needs NIOCore, which neither the storage nor the owner's logic does.
        .target(
            name: "TodoSharedStore",
            dependencies: ["TodoStoreInterface", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // The shared store: one list in PostgreSQL, for several todod instances
        // (`todod --store postgres://…`). Beside TodoStorage, used by the same owner.
        .target(
            name: "TodoPostgres",
            dependencies: [
                "TodoModel", "TodoViewState", "TodoViewModels", "TodoStoreInterface", "TodoSharedStore", "CanonicalJSON", "PercentEncoding",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Taskwarrior, todo.txt and iCalendar: reading them into items and
        // writing items out, pure functions the view models plan imports with.
        .target(name: "TodoInterchange", dependencies: ["TodoModel", "CanonicalJSON"]),
        .target(name: "TodoViewModels", dependencies: ["TodoModel", "TodoViewState", "TodoInterchange"]),
        // Two-way sync with a calendar server, the part without I/O: to-dos
        // read as calendars write them, and merged field by field.
        .target(name: "TodoSync", dependencies: ["TodoInterchange"]),
        // A CalDAV client (RFC 4791, sync-collection RFC 6578) over HTTPS.
        .target(
            name: "CalDAV",
            dependencies: [
                "PercentEncoding",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The sync as a service: rounds between todod (through its socket)
        // and a collection, the state it keeps, and its set-up.
        .target(
            name: "TodoSyncService",
            dependencies: [
                "TodoSync", "TodoInterchange", "CalDAV", "TodoClient", "TodoProtocol", "SystemdSupport", "UserFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "TodoProtocol", dependencies: ["TodoModel", "TodoViewState", "CanonicalJSON", "UserFiles"]),
        // The list owner's state machine: revisions, replies, subscriptions and
        // the order of acknowledgements, as a value that does no I/O. todod's
        // shell (TodoDaemon) runs it on an event loop; its tests drive it bare.
        .target(
            name: "TodoOwner",
            dependencies: ["TodoModel", "TodoViewState", "TodoViewModels", "TodoInterchange", "TodoProtocol", "CanonicalJSON", "TodoStoreInterface", "BuildInfo"]
        ),
        .target(
            name: "TodoDaemon",
            dependencies: [
                "TodoModel", "TodoOwner", "TodoStoreInterface", "TodoSharedStore", "TodoViewModels", "TodoProtocol", "SystemdSupport", "BuildInfo",
                "UserFiles",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "TodoClient",
            dependencies: [
                "TodoProtocol", "CanonicalJSON",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ]
        ),
        .executableTarget(
            name: "todod",
            dependencies: [
                "TodoDaemon", "TodoProtocol", "TodoPostgres", "TodoSharedStore", "TodoStorage", "TodoStoreInterface", "SystemdSupport", "BuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "todoctl",
            dependencies: [
                "TodoClient", "TodoProtocol", "TodoViewState", "TodoModel", "TodoInterchange", "CanonicalJSON", "BuildInfo",
                "DesktopNotifications", "WebAccess", "UserFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "todod-sync",
            dependencies: [
                "TodoSyncService", "TodoSync", "CalDAV", "TodoClient", "TodoProtocol", "SystemdSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // Where todod-web keeps its key and reads its settings; Glibc only, so
        // that `todoctl web` can print the page's address without Foundation.
        .target(name: "WebAccess", dependencies: ["UserFiles"]),
        // The page in a browser: HTTP (Hummingbird) with a WebSocket per tab,
        // relayed line for line to todod's socket, behind a key and Host and
        // Origin checks; the page itself is embedded in the binary.
        .target(
            name: "TodoWeb",
            dependencies: [
                "WebAccess", "TodoClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                // HTTPField.Name for the page's headers, which Hummingbird does not re-export.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // The request decoder, which the head deadline sits behind.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [
                .embedInCode("Page/index.html"),
                .embedInCode("Page/style.css"),
                .embedInCode("Page/app.js"),
            ]
        ),
        .executableTarget(
            name: "todod-web",
            dependencies: [
                "TodoWeb", "WebAccess", "TodoProtocol", "SystemdSupport", "BuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The benchmarks are a package of their own (Benchmarks/Package.swift,
        // built in release mode by scripts/bench), so that building and testing
        // this one never compiles them.

        // A seeded random generator for the property tests, one way to spawn a
        // child process (PostgreSQL's tools, the end-to-end tests' todod), and
        // temporary folders that go when the test that made them ends.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CanonicalJSONTests", dependencies: ["CanonicalJSON", "TestSupport"]),
        .testTarget(name: "PercentEncodingTests", dependencies: ["PercentEncoding", "TestSupport"]),
        .testTarget(name: "UserFilesTests", dependencies: ["UserFiles"]),
        .testTarget(name: "TodoModelTests", dependencies: ["TodoModel", "TestSupport"]),
        .testTarget(name: "TodoInterchangeTests", dependencies: ["TodoInterchange", "TodoModel", "TestSupport"]),
        .testTarget(name: "TodoSyncTests", dependencies: ["TodoSync", "TodoInterchange", "TestSupport"]),
        .testTarget(name: "TodoSyncServiceTests", dependencies: ["TodoSyncService", "TodoSync", "CalDAV", "TestSupport"]),
        .testTarget(
            name: "TodoStorageTests",
            dependencies: [
                "TodoStorage", "TodoStoreInterface", "TodoModel", "TodoViewState", "TodoViewModels", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // In-process with an injected clock: no store, no GRDB.
        .testTarget(
            name: "TodoViewModelsTests", dependencies: ["TodoViewModels", "TodoViewState", "TodoModel", "TodoInterchange", "TestSupport"]),
        .testTarget(name: "TodoProtocolTests", dependencies: ["TodoProtocol", "TodoViewState", "TodoModel", "CanonicalJSON", "TestSupport"]),
        .testTarget(
            name: "TodoDaemonTests",
            dependencies: [
                "TodoDaemon", "TodoStorage", "TodoStoreInterface", "TodoProtocol", "TodoViewState", "TodoViewModels", "TodoModel",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The owner's state machine driven bare: no event loop, socket or disk.
        .testTarget(
            name: "TodoOwnerTests",
            dependencies: ["TodoOwner", "TodoProtocol", "TodoStoreInterface", "TodoViewModels", "TodoViewState", "TodoModel", "TestSupport"]),
        // A throwaway PostgreSQL cluster (initdb in a temporary folder) for the tests that need one.
        .target(name: "PostgresTestSupport", dependencies: ["TestSupport"], path: "Tests/PostgresTestSupport"),
        // Real CalDAV servers (Radicale, Xandikos) started per test on
        // loopback, and python3-caldav acting as a phone on the same collection.
        .target(name: "CalDAVServerSupport", dependencies: ["TestSupport"], path: "Tests/CalDAVServerSupport"),
        .testTarget(
            name: "CalDAVTests",
            dependencies: [
                "CalDAV", "CalDAVServerSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "TodoPostgresTests",
            dependencies: [
                "TodoPostgres", "TodoStoreInterface", "TodoViewState", "TodoViewModels", "TodoModel", "PostgresTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // What todoctl's screens need from TodoClient, without a daemon: display widths.
        .testTarget(name: "TodoClientTests", dependencies: ["TodoClient"]),
        .testTarget(name: "DesktopNotificationsTests", dependencies: ["DesktopNotifications"]),
        .testTarget(name: "WebAccessTests", dependencies: ["WebAccess", "TestSupport"]),
        // The access gate's decisions; the page, the relay and the server
        // are tested in a real browser against the real binaries (Tests/web).
        .testTarget(
            name: "TodoWebTests",
            dependencies: [
                "TodoWeb", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // Starts the real todod and todoctl binaries; depending on them makes
        // `swift test` build them first.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TodoProtocol", "BuildInfo", "PostgresTestSupport", "CalDAVServerSupport", "TestSupport", "todod", "todoctl", "todod-sync",
                // The sync's rounds driven in-process against the real todod
                // and server, with a hook at the apply (SyncRaceEndToEndTests).
                "TodoSyncService", "TodoClient",
            ]),
    ]
)

// Release builds of todod's own modules:
// - optimize across them: each exports the bodies of its functions, so a
//   caller in another module specializes and inlines them instead of calling
//   generic code through runtime type metadata (about 13,000 instructions of
//   a durable todo.add);
// - check exclusive access at compile time only. The checks at run time
//   (every access to a class's stored property, a global or a captured
//   variable) cost about 9,000 instructions of a durable todo.add; debug
//   builds keep them, so the whole test suite runs with every access checked
//   and a violation fails it (docs/performance.md).
// Debug builds, and so the tests' build time, are unaffected.
for target in package.targets where [.regular, .executable].contains(target.type) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release))
        ]
}
