import Foundation
import Testing

/// Bad input over a real socket: precise errors, the connection survives
/// where it can, nothing is written, other clients are unaffected.
@Suite struct ProtocolEndToEndTests {
    @Test func malformedLinesGetErrorsAndTheConnectionStaysOpen() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let connection = try RawConnection(path: daemon.socket, readGreeting: true)

        try connection.send("this is not json\n")
        let parseError = try connection.readMessage()
        #expect(parseError.errorCode == -32700)
        #expect(parseError["id"] is NSNull)

        try connection.send(#"{"jsonrpc":"2.0","id":1,"method":"todo.fly"}"# + "\n")
        let unknown = try connection.readMessage()
        #expect(unknown.errorCode == -32601)
        #expect(unknown["id"] as? Int == 1)

        try connection.send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":" \t "}}"# + "\n")
        let blank = try connection.readMessage()
        #expect(blank.errorCode == -32602)
        #expect(blank.errorName == "todo.invalidTitle")
        #expect(blank.errorMessage?.contains("blank") == true)

        // Still the same connection, still served, and nothing was written.
        try connection.send(#"{"jsonrpc":"2.0","id":3,"method":"view.get"}"# + "\n")
        let list = try connection.readMessage()
        #expect(list["id"] as? Int == 3)
        #expect((list.result?["properties"] as? [String: Any])?["totalCount"] as? Int == 0)
    }

    @Test func anOversizeLineIsRefusedAndOthersAreServed() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let bystander = try RawConnection(path: daemon.socket, readGreeting: true)
        let offender = try RawConnection(path: daemon.socket, readGreeting: true)

        // 2 MiB without a newline: over the 1 MiB limit. The daemon may close
        // before all of it is written, so a broken pipe here is expected.
        try? offender.send(Data(repeating: UInt8(ascii: "x"), count: 2 << 20))
        let refusal = try offender.readMessage()
        #expect(refusal.errorName == "protocol.lineTooLong")
        #expect(try offender.readLine() == nil)  // then closed

        try bystander.send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"still here"}}"# + "\n")
        #expect(try bystander.readMessage().result != nil)
    }

    @Test func aSubscriberSeesItsOwnChangeBeforeTheReply() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let connection = try RawConnection(path: daemon.socket, readGreeting: true)
        try connection.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"# + "\n")
        let subscribed = try connection.readMessage()
        #expect(subscribed.result?["revision"] as? Int == 0)

        try connection.send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"milk"}}"# + "\n")
        let event = try connection.readMessage()
        #expect(event["method"] as? String == "view.changed")
        #expect((event["params"] as? [String: Any])?["revision"] as? Int == 1)
        let reply = try connection.readMessage()
        #expect(reply["id"] as? Int == 2)
    }
}
