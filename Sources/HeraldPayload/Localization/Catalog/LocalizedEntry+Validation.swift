extension LocalizedEntry {
    /// The format problems of this entry when it will be given `argumentCount` arguments:
    /// bad specifiers anywhere (body, plural forms), and references to arguments beyond
    /// the count, with each form's sequential specifiers numbered from its variable's
    /// argument as ``render(_:rules:missingArgument:)`` does.
    ///
    /// Used at subscription time; rendering never needs it. Each problem's location has
    /// no key: callers add it.
    public func formatProblems(argumentCount: Int) -> [PayloadError] {
        formatProblems(argumentCount: argumentCount, formats: ParsedFormats())
    }

    /// ``formatProblems(argumentCount:)`` with format strings parsed in advance (by text).
    func formatProblems(argumentCount: Int, formats: ParsedFormats) -> [PayloadError] {
        var problems: [PayloadError] = []
        var visited: Set<String> = []

        func check(_ text: String, firstSequential: Int, context: String) {
            let format = formats[text] ?? FormatString(text)
            problems += format.problems.map { problem in
                PayloadError(problem.code, "\(context)\(problem.reason)", at: problem.location)
            }
            for specifier in format.specifiers {
                let index = specifier.argumentIndex(firstSequential: firstSequential)
                if case .pluralVariable(let name) = specifier.conversion, let variable = variables[name] {
                    let slot = variable.argumentNumber.map { $0 - 1 } ?? index
                    if slot >= argumentCount {
                        problems.append(beyond(slot, "'\(specifier.source)'", context))
                    }
                    guard visited.insert(name).inserted else { continue }
                    for (category, form) in variable.forms.sorted(by: { $0.key < $1.key }) {
                        check(form, firstSequential: slot, context: "\(context)form '\(category.rawValue)' of \(name): ")
                    }
                } else if index >= argumentCount {
                    problems.append(beyond(index, "'\(specifier.source)'", context))
                }
            }
        }

        func beyond(_ index: Int, _ what: String, _ context: String) -> PayloadError {
            let given = argumentCount == 1 ? "1 argument is" : "\(argumentCount) arguments are"
            return PayloadError(.formatString, "\(context)\(what) refers to argument \(index + 1) but only \(given) given")
        }

        switch body {
        case .text(let text):
            check(text, firstSequential: 0, context: "")
        case .plural(let variable):
            let selector = (variable.argumentNumber ?? 1) - 1
            if selector >= argumentCount {
                problems.append(beyond(selector, "the plural", ""))
            }
            for (category, form) in variable.forms.sorted(by: { $0.key < $1.key }) {
                check(form, firstSequential: 0, context: "form '\(category.rawValue)': ")
            }
        }
        return problems
    }
}
