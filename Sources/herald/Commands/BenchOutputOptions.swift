import ArgumentParser

/// The options every `herald bench …` command shares: the output form and the log level.
struct BenchOutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object with the table's numbers on stdout instead of the table (logs stay on stderr).")
    var json = false

    @OptionGroup var logging: LoggingOptions
}
