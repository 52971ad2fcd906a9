import Foundation
import TestSupport

/// Where PostgreSQL's server programs are: Debian puts each major version's in
/// /usr/lib/postgresql/VERSION/bin, out of PATH, so PATH is no guide.
struct PostgresBinaries: Sendable {
    let directory: String

    var initdb: String { directory + "/initdb" }
    var pgCtl: String { directory + "/pg_ctl" }
    /// The psql of the same version as the server: Debian's /usr/bin/psql is a
    /// wrapper that picks a version by its own rules.
    var psql: String { directory + "/psql" }

    /// The newest version under /usr/lib/postgresql, else the one `pg_config --bindir` names.
    static func find() -> PostgresBinaries? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let newestFirst = versions.sorted { versionNumbers($0).lexicographicallyPrecedes(versionNumbers($1)) }.reversed()
        for version in newestFirst {
            let binaries = PostgresBinaries(directory: "\(root)/\(version)/bin")
            if binaries.isComplete { return binaries }
        }
        return fromPGConfig()
    }

    private var isComplete: Bool {
        [initdb, pgCtl, psql].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// "9.6" → [9, 6], "15" → [15]: so that 15 sorts after 9.6.
    private static func versionNumbers(_ name: String) -> [Int] {
        name.split(separator: ".").map { Int($0) ?? -1 }
    }

    private static func fromPGConfig() -> PostgresBinaries? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/pg_config" }
        guard let pgConfig = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
              let output = try? ProgramRun.run(pgConfig, ["--bindir"], environment: ProgramEnvironment.forPostgres),
              output.succeeded
        else { return nil }
        let binaries = PostgresBinaries(directory: output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        return binaries.isComplete ? binaries : nil
    }
}
