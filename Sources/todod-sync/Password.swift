import ArgumentParser
import CalDAV
import Foundation
import TodoSyncService

extension TododSync {
    /// A password changed on the server: the sync then fails with 401 until
    /// it has the new one. This stores it, after the server took it, and
    /// has the running service read it, without touching what was agreed.
    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stores a new password for the collection, once the server takes it, and restarts the sync with it.")
        @OptionGroup var locations: Locations
        @Option(help: "Read the password from this file's first line instead of asking on the terminal.") var passwordFile: String?

        func run() async throws {
            let paths = locations.paths
            let settings = try locations.settings()
            let password = try PasswordSource(file: passwordFile).read(prompt: "New password for \(settings.user) at \(settings.collectionURL): ")
            let account: CalDAVAccount
            do {
                account = try CalDAVAccount(collectionURL: settings.collectionURL, user: settings.user, password: password, caFile: settings.caFile)
            } catch {
                throw SyncCommandFailure(error)
            }
            _ = try await Add.check(account)
            do {
                try paths.savePassword(password)
            } catch {
                throw SyncCommandFailure(error.description, code: SyncCommandFailure.storage)
            }
            print("the server took the password; stored in \(paths.passwordFile) (readable by you only)")
            let service = paths.instance.serviceName
            if SyncLock.holder(in: paths.stateDirectory) != nil {
                // It read the old one when it started.
                if ServiceControl.systemctl(["try-restart", service]) {
                    print("\(service) restarted with it")
                } else {
                    print("restart the sync to use it: systemctl --user restart \(service)")
                }
            }
        }
    }
}
