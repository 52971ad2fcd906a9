import TodoProtocol

extension IncomingLine {
    /// Whether the line holds a request for `method`, alone or in a batch.
    func calls(_ method: String) -> Bool {
        switch self {
        case .request(.success(let request)): request.method == method
        case .batch(let members): members.contains { (try? $0.get())?.method == method }
        case .request(.failure), .blank: false
        }
    }
}
