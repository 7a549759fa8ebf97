/// The recursion behind ``LocalizedEntry/render(_:rules:missingArgument:)``.
struct EntryRenderer {
    static let maximumDepth = 8
    static let maximumExpansions = 1000

    /// Shared by the copies made for nested variables.
    final class Budget {
        var remaining = EntryRenderer.maximumExpansions
    }

    let entry: LocalizedEntry
    let arguments: [FormatArgument]
    let rules: PluralRules
    let missingArgument: String
    /// Format strings parsed in advance (a catalog's), by text; others are parsed when met.
    let formats: ParsedFormats
    let budget = Budget()
    var categories: [String: PluralCategory] = [:]

    init(entry: LocalizedEntry, arguments: [FormatArgument], rules: PluralRules, missingArgument: String,
         formats: ParsedFormats = ParsedFormats()) {
        self.entry = entry
        self.arguments = arguments
        self.rules = rules
        self.missingArgument = missingArgument
        self.formats = formats
    }

    mutating func render(_ format: String, firstSequential: Int, depth: Int) -> String {
        var chosen: [String: PluralCategory] = [:]
        let this = self
        let text = (formats[format] ?? FormatString(format)).render(arguments, firstSequential: firstSequential,
                                               missingArgument: missingArgument) { request in
            guard let variable = this.entry.variables[request.name] else {
                return request.argument?.text ?? this.missingArgument
            }
            var nested = this
            let index = variable.argumentNumber.map { $0 - 1 } ?? request.argumentIndex
            let text = nested.render(variable, argumentIndex: index, formsAreComplete: false, depth: depth + 1)
            chosen.merge(nested.categories) { _, new in new }
            return text
        }
        categories.merge(chosen) { _, new in new }
        return text
    }

    mutating func render(_ variable: PluralVariable, argumentIndex: Int, formsAreComplete: Bool, depth: Int) -> String {
        guard depth <= Self.maximumDepth, budget.remaining > 0 else { return "" }
        budget.remaining -= 1
        let argument = arguments.indices.contains(argumentIndex) ? arguments[argumentIndex] : nil
        let operands = argument.flatMap { Self.operands(of: $0, valueType: variable.valueType, formats: formats) }
        guard let (category, form) = rules.selectForm(for: operands, in: variable.forms) else { return missingArgument }
        categories[variable.name] = category
        return render(form, firstSequential: formsAreComplete ? 0 : argumentIndex, depth: depth)
    }

    /// The plural operands of an argument; a floating-point value type with a precision
    /// (`.1f`) uses the number as it will be printed, so that `1.0` is not `one`.
    static func operands(
        of argument: FormatArgument, valueType: String, formats: ParsedFormats = ParsedFormats()
    ) -> PluralOperands? {
        let valueFormat = "%" + valueType
        if let specifier = (formats[valueFormat] ?? FormatString(valueFormat)).specifiers.first,
           specifier.precision != nil, specifier.conversion == .fixed {
            switch argument {
            case .double, .integer:
                return PluralOperands(decimal: FormatString.format(argument, with: specifier))
            case .string, .timestamp:
                break
            }
        }
        return argument.pluralOperands
    }
}
