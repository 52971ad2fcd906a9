// swift-tools-version:6.2
import PackageDescription

// The benchmarks, a package of their own (as SwiftNIO keeps its own) so that
// building and testing todod never compiles them. scripts/bench builds them in
// release mode and times the todod and todoctl of todod's own release build,
// which it passes in TODOD_BIN_DIR: the binaries that get installed, not a
// second build of them here.
let package = Package(
    name: "todod-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // todod itself, for the modules it exposes as library products to this
        // package. Named, because a local package is otherwise known by its
        // folder's name, which is the checkout's (todod, main, a worktree's…).
        .package(name: "todod", path: ".."),
        // Same URL and requirement as todod's: one GRDB in the graph, the one todod builds with.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // Percentiles, report lines, child processes and sockets shared by the benchmarks.
        .target(name: "BenchmarkSupport"),
        // The view models at 100,000 items, in-process.
        .executableTarget(
            name: "todod-bench",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "TodoModel", package: "todod"),
                .product(name: "TodoViewState", package: "todod"),
                .product(name: "TodoStorage", package: "todod"),
                .product(name: "TodoViewModels", package: "todod"),
                .product(name: "TodoProtocol", package: "todod"),
            ]
        ),
        // todod over its socket against a plain echo, raw SQLite (the C API
        // through GRDB's system-library module, no GRDB code) and Redis.
        .executableTarget(
            name: "todod-protocol-bench",
            dependencies: ["BenchmarkSupport", .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        // The list view model's properties made into JSONValues, and read back
        // by JSONValueDecoder against through JSON text, in-process.
        .executableTarget(
            name: "json-value-bench",
            dependencies: [
                .product(name: "TodoViewState", package: "todod"), .product(name: "TodoProtocol", package: "todod"),
            ]
        ),
        // todoctl against Taskwarrior, as whole processes.
        .executableTarget(name: "todoctl-bench", dependencies: ["BenchmarkSupport"]),
        // Several todod sharing one list in a throwaway PostgreSQL cluster,
        // against pgbench on the same server.
        .executableTarget(
            name: "todod-shared-bench",
            dependencies: ["BenchmarkSupport", .product(name: "PostgresTestSupport", package: "todod")]
        ),
    ]
)
