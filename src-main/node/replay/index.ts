/** The replay harness: a recorded Claude Code session through Loupe's builder and the simulator (docs/cache-attribution.md). */
export { replayTranscript, replaySession, naiveRequest, ReplayInputError } from './replay'
export { runReplayCli } from './cli'
export type { ReplayOptions, ReplayReport, ShareFigures } from './replay'
export { transcriptPasses, cleanMessage } from './transcript-passes'
export type { ReplayPass } from './transcript-passes'
export { ReplayResponder } from './responder'
