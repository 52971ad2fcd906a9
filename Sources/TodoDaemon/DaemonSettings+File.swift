import Foundation
import Logging
import TodoModel
import TodoViewModels
import UserFiles

/// Reading todod.conf: its lines on top of the defaults, then the command line's options.
extension DaemonSettings {
    /// These settings with the file's text applied on top. `path` names the
    /// file in errors, which give the line number and what is wrong.
    public func applying(fileText text: String, path: String) throws(Invalid) -> DaemonSettings {
        var settings = self
        let lines: [SettingsLine]
        do { lines = try SettingsFile.lines(of: text, path: path) } catch { throw Invalid(error.description) }
        for line in lines {
            let (key, value) = (line.key, line.value)
            if key.hasPrefix(Self.fieldPrefix) {
                let fieldName = String(key.dropFirst(Self.fieldPrefix.count))
                do {
                    let declaration = try FieldDeclaration.userDefined(name: fieldName, declaredAs: value)
                    settings.userFields.removeAll { $0.name == fieldName }
                    settings.userFields.append(declaration)
                    _ = try FieldCatalog(userDefined: settings.userFields)
                } catch {
                    throw Invalid(line.problem(error.description))
                }
                continue
            }
            guard let name = Name(rawValue: key) else {
                let known = Name.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid(line.problem("unknown setting '\(key)' (known: \(known), and field.NAME to declare a field)"))
            }
            do {
                try settings.set(name, to: value)
            } catch {
                throw Invalid(line.problem(error.description))
            }
        }
        do {
            try settings.validate()
        } catch {
            throw Invalid("\(path): \(error.description)")
        }
        return settings
    }

    /// These settings with the file at `path` applied, or unchanged when
    /// there is no file there (todod needs none).
    public func applying(fileAt path: String) throws(Invalid) -> DaemonSettings {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return self }
            throw Invalid("\(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard let data = try? file.readToEnd() ?? Data(), let text = String(data: data, encoding: .utf8) else {
            throw Invalid("\(path): cannot be read as UTF-8 text")
        }
        return try applying(fileText: text, path: path)
    }

    /// The defaults, then the file at `path` (which may be missing unless
    /// `mustExist`), then `overrides` (the options on the command line).
    public static func load(
        file path: String, mustExist: Bool, overrides: [(Name, String)]
    ) throws(Invalid) -> DaemonSettings {
        if mustExist, !FileManager.default.fileExists(atPath: path) {
            throw Invalid("\(path): no such file")
        }
        var settings = try DaemonSettings().applying(fileAt: path)
        for (name, value) in overrides {
            do {
                try settings.set(name, to: value)
            } catch {
                throw Invalid("--\(error.description)")
            }
        }
        try settings.validate()
        return settings
    }

    /// `$XDG_CONFIG_HOME/todod/todod.conf`, else `~/.config/todod/todod.conf`.
    public static func defaultFilePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        BaseDirectories(environment: environment).configHome + "/todod/todod.conf"
    }
}
