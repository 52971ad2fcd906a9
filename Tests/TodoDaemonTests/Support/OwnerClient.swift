import Foundation
import Synchronization
import TodoProtocol
@testable import TodoDaemon

/// A connection to a `ListOwner` without a socket: what the owner queues in
/// its outbox is collected as the channel handler would write it, and the
/// test awaits replies and reads pushed events.
final class OwnerClient: Sendable {
    let id: Int
    let owner: ListOwner
    private let box = StateBox()

    private final class StateBox: Sendable {
        let state = Mutex(State())
    }

    private struct State {
        var replies: [String] = []
        var events: [String] = []
        var waiter: CheckedContinuation<String?, Never>?
        var closed = false
    }

    init(id: Int = 1, owner: ListOwner) {
        self.id = id
        self.owner = owner
        let outboxBox = OutboxBox()
        let outbox = ConnectionOutbox(
            connectionID: id, limits: .init(softBytes: 1 << 20, hardBytes: 8 << 20, stallTimeout: .seconds(30)),
            drained: { _ in }, saidGoodbye: { _, _ in },
            wake: { [box = self.box] in
                guard let outbox = outboxBox.withLock({ $0 }) else { return }
                Self.drain(outbox, into: box)
            })
        outboxBox.withLock { $0 = outbox }
        owner.connect(outbox) { epoch, revision in
            MessageEncoding.notification(
                ServerHello.self,
                params: .init(
                    server: "test", epoch: epoch, revision: revision, connection: id,
                    limits: .init(
                        maxLineBytes: 1 << 20, lineTimeoutSeconds: 30, outboxSoftLimitBytes: 1 << 20,
                        outboxHardLimitBytes: 8 << 20, stallTimeoutSeconds: 30, maxConnections: 10, historyRevisions: 1000)))
        }
    }

    private final class OutboxBox: Sendable {
        let value = Mutex<ConnectionOutbox?>(nil)
        func withLock<T>(_ body: (inout ConnectionOutbox?) -> T) -> T { value.withLock { body(&$0) } }
    }

    private static func drain(_ outbox: ConnectionOutbox, into box: StateBox) {
        while case .write(let data) = outbox.takeNext() {
            outbox.didWrite(data.count)
            for line in data.split(separator: 10) {
                let text = String(decoding: line, as: UTF8.self)
                let waiter = box.state.withLock { state -> CheckedContinuation<String?, Never>? in
                    if text.contains(#""method":"server.hello""#) { return nil }
                    if text.hasPrefix(#"{"jsonrpc":"2.0","method""#) {
                        state.events.append(text)
                        return nil
                    }
                    state.replies.append(text)
                    defer { state.waiter = nil }
                    return state.waiter
                }
                if let waiter { waiter.resume(returning: box.state.withLock { $0.replies.removeFirst() }) }
            }
        }
    }

    /// Hands `line` to the owner without waiting.
    func submit(_ line: String) {
        owner.submit([ListOwner.Submission(connection: id, line: IncomingLine.parse(Data(line.utf8)))])
    }

    /// The next reply line (replies come in request order).
    func nextReply() async -> String? {
        await withCheckedContinuation { continuation in
            let ready = box.state.withLock { state -> String?? in
                if !state.replies.isEmpty { return .some(state.replies.removeFirst()) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Sends a request and returns its reply.
    func send(_ line: String) async -> IncomingMessage? {
        submit(line)
        guard let reply = await nextReply() else { return nil }
        return try? IncomingMessage.parse(Data(reply.utf8))
    }

    func error(_ line: String) async -> RPCError? {
        if case .failure(_, let error)? = await send(line) { return error }
        return nil
    }

    /// The events pushed so far, in order.
    var events: [String] { box.state.withLock { $0.events } }
}
