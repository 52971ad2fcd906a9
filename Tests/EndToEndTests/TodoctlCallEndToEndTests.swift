import Foundation
import Testing

/// `todoctl call`: one raw request, the reply printed as todod sent it, and
/// an exit status that says whose mistake it was.
@Suite struct TodoctlCallEndToEndTests {
    @Test func aMethodTodoDoesNotHaveIsAUsageErrorAndItsReplyIsPrinted() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let unknown = try await todoctl("call", "no.such.method", socket: daemon.socket)
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stdout.contains(#""code":-32601"#), "the reply line: \(unknown.stdout)")
        #expect(unknown.stderr.hasPrefix("todoctl: "), "\(unknown.stderr)")

        let known = try await todoctl("call", "todo.add", #"{"title":"buy milk"}"#, socket: daemon.socket)
        #expect(known.status == 0 && known.stdout.contains(#""title":"buy milk""#), "\(known)")
        let refused = try await todoctl("call", "todo.add", #"{"title":" "}"#, socket: daemon.socket)
        #expect(refused.status == 65, "\(refused)")
    }
}
