/// `path`, made absolute against `directory` when relative (nothing else
/// is changed). The store's paths are kept absolute from the moment they
/// are read, so the file they name cannot change with the daemon's working
/// directory.
func absolutePath(_ path: String, in directory: String) -> String {
    path.hasPrefix("/") ? path : (directory.hasSuffix("/") ? directory : directory + "/") + path
}
