import CanonicalJSON
import Foundation
import TodoProtocol

// The daemon describing itself.

extension DescribeProtocol: OwnerMethod {
    static func answer(_: NoParams, cause: Cause, owner: inout OwnerState) -> OwnerState.Answer<JSONValue> {
        OwnerState.Answer(result: ProtocolDescription.document, durableAt: 0)
    }
}

extension ServerStatus: OwnerMethod {
    static func answer(_: NoParams, cause: Cause, owner: inout OwnerState) -> OwnerState.Answer<Result> {
        OwnerState.Answer(result: owner.status(), durableAt: 0)
    }
}

extension OwnerState {
    func status() -> ServerStatus.Result {
        ServerStatus.Result(
            server: server.version, protocol: ServerHello.protocolVersion, epoch: epoch, revision: publishedRevision,
            items: viewModel.itemCount, connections: connections.count, subscriptions: subscriptions.count,
            uptimeSeconds: Int(now().timeIntervalSince(server.startedAt)), dataFile: server.dataFile, list: viewModel.listID,
            store: isShared ? "postgres" : "sqlite", instance: instance, stale: !storeReachable, notices: notices)
    }
}
