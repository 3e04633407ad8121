/// What a build tells a progress display as it works: the protocol the CLI's terminal line
/// (`FeedgenCLI.BuildProgress`) implements, so the pipeline reports progress without knowing
/// about terminals.
public protocol BuildProgressReporting: AnyObject, Sendable {
    /// A new stage (`"rendering pages"`), counting from 0 to `total` (0: not counted).
    func begin(_ stage: String, total: Int)
    /// `count` more of the stage's `total` are done.
    func advance(by count: Int)
    /// Writes `text` (whole lines) through `writer` (nil: the display's own writer), without
    /// garbling a progress line that is shown.
    func say(_ text: String, through writer: (@Sendable (String) -> Void)?)
    /// Ends the display (a shown line is cleared); called once the build is over. Idempotent.
    func finish()
}

extension BuildProgressReporting {
    /// A stage that is not counted.
    public func begin(_ stage: String) { begin(stage, total: 0) }
    /// One more of the stage's total is done.
    public func advance() { advance(by: 1) }
}
