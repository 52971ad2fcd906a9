import Foundation
import TodoProtocol

// The daemon describing itself.

extension DescribeProtocol: OwnerMethod {
    static func answer(_: NoParams, cause: Cause, owner: ListOwner) -> ListOwner.Answer<JSONValue> {
        ListOwner.Answer(result: ProtocolDescription.document, durableAt: 0)
    }
}

extension ServerStatus: OwnerMethod {
    static func answer(_: NoParams, cause: Cause, owner: ListOwner) -> ListOwner.Answer<Result> {
        ListOwner.Answer(result: owner.status(), durableAt: 0)
    }
}

extension ListOwner {
    func status() -> ServerStatus.Result {
        ServerStatus.Result(
            server: server.version, protocol: ServerHello.protocolVersion, epoch: epoch, revision: publishedRevision,
            items: viewModel.itemCount, connections: connections.count, subscriptions: subscriptions.count,
            uptimeSeconds: Int(Date().timeIntervalSince(server.startedAt)), dataFile: server.dataFile,
            store: sharedStore == nil ? "sqlite" : "postgres", instance: sharedStore?.instance, stale: !storeReachable)
    }
}
