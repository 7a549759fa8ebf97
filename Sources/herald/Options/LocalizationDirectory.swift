import Foundation
import HeraldPayload

/// Loads an app's localizations from a directory: `<lang>.lproj/Localizable.strings`,
/// `<lang>.lproj/Localizable.stringsdict` and `Localizable.xcstrings` (any depth; paths are
/// relative to the directory). Folders spelling one language twice (`he.lproj` and
/// `iw.lproj`) are warned about on standard error, saying which spelling wins.
enum LocalizationDirectory {
    /// - Parameter developmentLanguage: default: the `.xcstrings` `sourceLanguage`, else `en`.
    /// - Throws: `CommandFailure.invalidInput` naming the directory or the file that is wrong.
    static func load(_ directory: String, developmentLanguage: String? = nil) throws -> LocalizationCatalog {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure.invalidInput("--localizations: \(directory) is not a directory")
        }
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw CommandFailure.invalidInput("--localizations: cannot list \(directory)")
        }
        var files: [String: Data] = [:]
        for case let url as URL in walker {
            let name = url.lastPathComponent
            guard name.hasSuffix(".strings") || name.hasSuffix(".stringsdict") || name.hasSuffix(".xcstrings") else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            do {
                files[relative] = try Data(contentsOf: url)
            } catch {
                throw CommandFailure.invalidInput("--localizations: cannot read \(relative): \(error.localizedDescription)")
            }
        }
        guard !files.isEmpty else {
            throw CommandFailure.invalidInput("--localizations: \(directory) holds no .strings, .stringsdict or .xcstrings files")
        }
        let language = developmentLanguage ?? sourceLanguage(of: files) ?? "en"
        let catalog: LocalizationCatalog
        do {
            catalog = try LocalizationCatalog(files: files, developmentLanguage: language)
        } catch {
            throw CommandFailure.invalidInput("--localizations: \(error)")
        }
        // Two spellings of one language (`he.lproj`, `iw.lproj`) are legal but worth knowing.
        for note in catalog.spellingNotes {
            FileHandle.standardError.write(Data("warning: --localizations: \(note)\n".utf8))
        }
        return catalog
    }

    private static func sourceLanguage(of files: [String: Data]) -> String? {
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".xcstrings") {
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               let language = object["sourceLanguage"] as? String, !language.isEmpty {
                return language
            }
        }
        return nil
    }
}
