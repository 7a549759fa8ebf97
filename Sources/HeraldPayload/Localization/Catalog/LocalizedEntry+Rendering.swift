extension LocalizedEntry {
    /// Formats the entry with arguments, choosing plural forms with `rules`. Never fails.
    ///
    /// A `%#@name@` variable takes the argument its specifier consumes (or the variable's
    /// fixed ``PluralVariable/argumentNumber``), chooses a form with
    /// ``PluralRules/selectForm(for:in:)`` (so `zero` wins for 0 when written, and a
    /// missing category falls back to `other`), and renders that form in the same argument
    /// list: positional specifiers in the form are absolute, and its sequential specifiers
    /// start at the variable's own argument. So `"%@ sent %#@photos@"` with the form
    /// `"%d photos"` prints the count, and a form without a number (`"a photo"`) does not
    /// shift later arguments. Forms may use other variables, up to 8 levels deep and 1000
    /// expansions in all (beyond that variables print nothing, so a variable that refers
    /// to itself cannot loop or explode).
    ///
    /// - Parameters:
    ///   - arguments: the values, argument 1 first.
    ///   - rules: the plural rules of the language the entry belongs to.
    ///   - missingArgument: printed for a specifier without an argument.
    /// - Returns: the text and the category chosen for each variable that was rendered
    ///   (a top-level catalog plural is reported under the name `plural`).
    public func render(
        _ arguments: [FormatArgument], rules: PluralRules, missingArgument: String = ""
    ) -> (text: String, categories: [String: PluralCategory]) {
        render(arguments, rules: rules, missingArgument: missingArgument, formats: ParsedFormats())
    }

    /// ``render(_:rules:missingArgument:)`` with format strings parsed in advance (by
    /// text); a text not in `formats` is parsed when met. Same result, less work.
    func render(
        _ arguments: [FormatArgument], rules: PluralRules, missingArgument: String, formats: ParsedFormats
    ) -> (text: String, categories: [String: PluralCategory]) {
        var renderer = EntryRenderer(entry: self, arguments: arguments, rules: rules, missingArgument: missingArgument,
                                     formats: formats)
        let text: String
        switch body {
        case .text(let format):
            text = renderer.render(format, firstSequential: 0, depth: 0)
        case .plural(let variable):
            text = renderer.render(variable, argumentIndex: (variable.argumentNumber ?? 1) - 1,
                                   formsAreComplete: true, depth: 0)
        }
        return (text, renderer.categories)
    }
}

extension LocalizedEntry {
    /// Every format string rendering may parse: the body or its plural forms, each
    /// variable's forms, and each variable's value type as a specifier (`%d`).
    var formatTexts: [String] {
        var texts: [String] = []
        switch body {
        case .text(let text): texts.append(text)
        case .plural(let variable):
            texts += variable.forms.values
            texts.append("%" + variable.valueType)
        }
        for variable in variables.values {
            texts += variable.forms.values
            texts.append("%" + variable.valueType)
        }
        return texts
    }
}
