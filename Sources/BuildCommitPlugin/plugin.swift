import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` into the `BuildCommit` module before every
/// build: the git commit the sources were built from, so that `--version`
/// says which code runs ("0.6.0 (commit 1a2b3c4d5e6f)"), and "modified"
/// when tracked files differ from it.
///
/// A prebuild command, because which commit is checked out is not an input
/// SwiftPM can watch. The file is rewritten only when its text changes, so
/// an unchanged checkout rebuilds nothing. Outside a git checkout (a source
/// tarball, a Debian source package) or without git, the commit is nil and
/// the version is the release number alone.
@main
struct BuildCommitPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = """
            set -u
            package=$(cd "$1" && pwd -P) output=$2
            mkdir -p "$output"
            # This package's own checkout only: not a repository around an
            # unpacked tarball, and not refused for another owner's checkout.
            git() { command git -c safe.directory="$package" -C "$package" "$@"; }
            commit=
            if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$package" ]; then
                commit=$(git rev-parse --short=12 HEAD 2>/dev/null) || commit=
            fi
            if [ -n "$commit" ] && ! git diff --quiet HEAD -- 2>/dev/null; then
                commit="$commit, modified"
            fi
            if [ -n "$commit" ]; then value="\\"$commit\\""; else value=nil; fi
            text="// Generated before each build by BuildCommitPlugin; not kept in git.
            public enum BuildCommit {
                /// The git commit built, with \\", modified\\" when tracked files differ from it; nil outside a checkout.
                public static let description: String? = $value
            }"
            if [ "$(cat "$output/BuildCommit.swift" 2>/dev/null)" != "$text" ]; then
                printf '%s\\n' "$text" > "$output/BuildCommit.swift"
            fi
            """
        return [
            .prebuildCommand(
                displayName: "Finding the git commit built",
                executable: URL(filePath: "/bin/sh"),
                arguments: [
                    "-c", script, "sh", context.package.directoryURL.path(percentEncoded: false),
                    output.path(percentEncoded: false),
                ],
                outputFilesDirectory: output)
        ]
    }
}
