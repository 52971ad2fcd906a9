import ArgumentParser
import TodoProtocol

/// The options every command that talks to todod shares.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The socket todod listens on: $TODOD_SOCKET if set, else $XDG_RUNTIME_DIR/todod/todod.sock.",
            valueName: "path"
        )
    )
    var socket: String = SocketLocation.defaultPath()
}
