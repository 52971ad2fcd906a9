import ArgumentParser

struct Completion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print a shell completion script.",
        discussion: """
            Install it where your shell looks for it:
              bash:  mkdir -p ~/.local/share/bash-completion/completions && \\
                     todoctl completion bash > ~/.local/share/bash-completion/completions/todoctl
              zsh:   todoctl completion zsh > "${fpath[1]}/_todoctl"
              fish:  todoctl completion fish > ~/.config/fish/completions/todoctl.fish
            """)

    enum Shell: String, ExpressibleByArgument, CaseIterable {
        case bash, zsh, fish
    }

    @Argument(help: "bash, zsh or fish")
    var shell: Shell

    func run() {
        let target: CompletionShell =
            switch shell {
            case .bash: .bash
            case .zsh: .zsh
            case .fish: .fish
            }
        print(Todoctl.completionScript(for: target))
    }
}
