import TodoOwner

/// The owner puts a connection's lines in its outbox.
extension ConnectionOutbox: ConnectionLines {}
