import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the files commands are given, saying why one cannot be read.
enum InputFile {
    /// The bytes of `path` (`-`: standard input when `stdin` is allowed).
    /// - Throws: `CommandFailure` (exit 2): `cannot read PATH: no such file or directory`
    ///   (or `permission denied`, `is a directory`…).
    static func read(_ path: String, stdin: Bool = false) throws(CommandFailure) -> Data {
        if stdin, path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        if let reason = unreadableReason(path) { throw CommandFailure.invalidInput("cannot read \(path): \(reason)") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure.invalidInput("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Why `path` cannot be read as a file, or `nil` when it can be opened.
    static func unreadableReason(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return describe(EISDIR)
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return describe(errno) }
        close(descriptor)
        return nil
    }

    /// `strerror`'s text, lower-cased first letter: `no such file or directory`.
    private static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
