/**
 * What the entries of a conversation are drawn in, beyond each entry itself (decision 0047): what the entries held say
 * about one another (a call's result, the take-back a message is folded under, a failure repeated, a pass's answer),
 * and what the conversation is drawn with (the pass chosen, the turn running).
 *
 * What the entries say about one another is worked out anew whenever the entries change: a page of earlier ones read
 * from the host (decision 0039), a result at the end. The context is then a new object, yet most entries shown read the
 * same from it as before. A part of the conversation draws again only if one of its entries reads something else
 * (`entriesDrawSame`): a page read from the host draws the parts it fills, not the thousands of entries already shown.
 */
import type { EntryView } from '../../../src-preload/contract'
import { answerDrawsSame, type AnswerProps } from './answer-props'
import { authorOf, type ConversationSource } from './origin'
import { repeatedFailures, retryableFailure } from './retry'
import { isTakeBack, takeBackableMessages, takeBacks, type TakeBacks } from './take-back'
import { summarisedWords, type Replaced, type SummarisedWords } from '../compaction/model/summarised'

export interface EntryContext {
  readonly sessionId: string
  /** The messages a "Take back" is offered on now, each with how many messages it takes (it and those after it). */
  readonly takeBackFrom: ReadonlyMap<string, number>
  readonly selectedPassId: string | null
  /** Each pass's answer: its last assistant message (the one a chosen pass marks). */
  readonly answerOfPass: ReadonlyMap<string, EntryView>
  readonly onSelectPass: (passId: string) => void
  /** What made each pass, so a message is labelled by who wrote it. */
  readonly passSources: ReadonlyMap<string, ConversationSource>
  readonly source: ConversationSource
  /** A continued conversation: the position of the last entry it brought from Claude Code, and the line after it. */
  readonly inherited: number | null
  readonly continuedText: string
  readonly results: ReadonlyMap<string, EntryView>
  readonly runningTools: ReadonlyArray<string>
  readonly turnRunning: boolean
  /** The answer that is the conversation's one Tab stop among the answers. */
  readonly tabStop: string | null
  /** Failed turns retried and failed the same way: hidden, counted on the newest. */
  readonly repeated: { readonly hidden: ReadonlySet<string>; readonly times: ReadonlyMap<string, number> }
  /** The failure a Retry is offered on. */
  readonly lastFailure: EntryView | null
  readonly seqOf: (entryId: string) => number | undefined
  /** The entries folded under each take-back. */
  readonly takenUnder: ReadonlyMap<string, ReadonlyArray<EntryView>>
}

/** What the entries held say about one another: worked out when they change, not at every streamed delta. */
export interface EntryFacts {
  readonly results: ReadonlyMap<string, EntryView>
  readonly lastFailure: EntryView | null
  readonly repeated: EntryContext['repeated']
  /** Messages taken back, folded under their take-back. */
  readonly taken: TakeBacks
  /** The messages a "Take back" can be offered on (an earlier one takes the later ones with it), oldest first. */
  readonly backable: ReadonlyArray<EntryView>
  readonly answerOfPass: ReadonlyMap<string, EntryView>
  readonly seqOf: (entryId: string) => number | undefined
}

/**
 * `seqs`: positions of entries not read, that checkpoints name (the host's). `inherited`: how many of a continued
 * session's first entries came from Claude Code (none of them can be taken back).
 */
export function entryFacts(entries: ReadonlyArray<EntryView>, seqs: Readonly<Record<string, number>>, inherited: number | null): EntryFacts {
  const results = new Map<string, EntryView>()
  for (const e of entries) if (e.kind === 'tool_result') results.set(String(e.toolUseId), e)
  // A pass's answer is its last assistant message: an imported compaction call's conversation links every message it
  // carried to its one pass, and only the answer is that pass's to mark.
  const answerOfPass = new Map<string, EntryView>()
  for (const e of entries) if (e.kind === 'assistant_message') answerOfPass.set(String(e.passId), e)
  const seqById = new Map(entries.map((e) => [e.id, e.seq]))
  const taken = takeBacks(entries)
  return {
    results,
    lastFailure: retryableFailure(entries),
    repeated: repeatedFailures(entries),
    taken,
    backable: takeBackableMessages(entries, taken.folded, inherited),
    answerOfPass,
    seqOf: (entryId) => seqById.get(entryId) ?? seqs[entryId],
  }
}

/**
 * The conversation's one Tab stop among the answers shown (from index `from` on): the chosen pass's answer, else the
 * newest. Found from the facts and from the newest entry back, not by going through every entry shown: it is worked
 * out again at each "Show earlier", thousands of entries shown.
 */
export function answerTabStop(entries: ReadonlyArray<EntryView>, from: number, facts: EntryFacts, selectedPassId: string | null): string | null {
  const isShownAnswer = (e: EntryView) => e.kind === 'assistant_message' && !facts.taken.folded.has(e.id)
  const chosen = selectedPassId === null ? undefined : facts.answerOfPass.get(selectedPassId)
  if (chosen !== undefined && chosen.seq >= (entries[from]?.seq ?? Infinity) && isShownAnswer(chosen)) return chosen.id
  for (let i = entries.length - 1; i >= Math.max(0, from); i--) if (isShownAnswer(entries[i]!)) return entries[i]!.id
  return null
}

/** What the conversation draws its entries with, besides what they say about one another. */
export interface DrawnWith {
  readonly sessionId: string
  readonly selectedPassId: string | null
  readonly onSelectPass: (passId: string) => void
  readonly passSources: ReadonlyMap<string, ConversationSource>
  readonly source: ConversationSource
  readonly inherited: number | null
  readonly continuedText: string
  readonly runningTools: ReadonlyArray<string>
  readonly turnRunning: boolean
  readonly tabStop: string | null
  /** Whether a "Take back" is offered at all: not while a turn runs or an approval waits, nor in a recorded session. */
  readonly canTakeBack: boolean
}

export function entryContext(facts: EntryFacts, drawn: DrawnWith): EntryContext {
  const { canTakeBack, ...rest } = drawn
  const { backable } = facts
  return {
    ...rest,
    // Each message offered → how many messages taking it back takes (it and those after it).
    takeBackFrom: new Map(canTakeBack ? backable.map((e, i) => [e.id, backable.length - i]) : []),
    answerOfPass: facts.answerOfPass,
    results: facts.results,
    repeated: facts.repeated,
    lastFailure: facts.lastFailure,
    seqOf: facts.seqOf,
    takenUnder: facts.taken.under,
  }
}

/** An answer's props, as the conversation draws it (ConversationEntry.tsx) and compares it (`entryDrawsSame`). */
export function answerPropsOf(entry: EntryView, context: EntryContext): AnswerProps {
  const passId = String(entry.passId)
  const { inherited, source } = context
  return {
    entry,
    selected: passId === context.selectedPassId && context.answerOfPass.get(passId) === entry,
    onSelectPass: context.onSelectPass,
    author: inherited !== null && entry.seq <= inherited ? authorOf('transcript') : authorOf(context.passSources.get(passId) ?? source),
    results: context.results,
    runningTools: context.runningTools,
    turnRunning: context.turnRunning,
    recorded: source !== 'loupe',
    tabStop: entry.id === context.tabStop,
  }
}

/** How a failed turn shows: not at all when a later one repeats it; how many times in a row; whether Retry is offered. */
export function failureShownAs(entry: EntryView, context: EntryContext): { readonly hidden: boolean; readonly times: number | undefined; readonly retry: boolean } {
  return {
    hidden: context.repeated.hidden.has(entry.id),
    times: context.repeated.times.get(entry.id),
    // The button goes as the turn starts again.
    retry: entry === context.lastFailure && !context.turnRunning && context.source === 'loupe',
  }
}

/** The range of entries a checkpoint summarised, in words, or null for one that summarised nothing (a trim). */
export function checkpointRange(entry: EntryView, context: EntryContext): SummarisedWords | null {
  const replaced = entry.replaced as Replaced | null | undefined
  return replaced ? summarisedWords(replaced, context.seqOf) : null
}

/**
 * The context's fields an entry reads for itself, compared entry by entry (`entryDrawsSame`); a change of any other
 * field draws every entry again.
 */
const READ_BY_ENTRY = new Set<keyof EntryContext>(['takeBackFrom', 'selectedPassId', 'answerOfPass', 'passSources', 'results', 'runningTools', 'turnRunning', 'tabStop', 'repeated', 'lastFailure', 'seqOf', 'takenUnder'])

/**
 * Whether `entries` draw the same in the context `next` as in `prev` (a part's memo, parts.ts). Each entry is compared
 * on what it reads from the context, as ConversationEntry.tsx draws it.
 */
export function entriesDrawSame(entries: ReadonlyArray<EntryView>, prev: EntryContext, next: EntryContext): boolean {
  if (prev === next) return true
  for (const key of Object.keys(next) as Array<keyof EntryContext>) if (!READ_BY_ENTRY.has(key) && prev[key] !== next[key]) return false
  return entries.every((entry) => entryDrawsSame(entry, prev, next))
}

/** Whether one entry draws the same in both contexts: what it reads from them, kind by kind (drawEntry's cases). */
function entryDrawsSame(entry: EntryView, prev: EntryContext, next: EntryContext): boolean {
  switch (entry.kind) {
    case 'user_message':
      return prev.takeBackFrom.get(entry.id) === next.takeBackFrom.get(entry.id)
    case 'assistant_message':
      return answerDrawsSame(answerPropsOf(entry, prev), answerPropsOf(entry, next))
    case 'turn_failed': {
      const [was, now] = [failureShownAs(entry, prev), failureShownAs(entry, next)]
      return was.hidden === now.hidden && was.times === now.times && was.retry === now.retry
    }
    case 'checkpoint': {
      const [was, now] = [checkpointRange(entry, prev), checkpointRange(entry, next)]
      return was?.text === now?.text && was?.rest === now?.rest
    }
    case 'context_edit': {
      if (!isTakeBack(entry)) return true
      // A take-back draws what it folds, each entry in the same context.
      const [was, now] = [prev.takenUnder.get(entry.id) ?? [], next.takenUnder.get(entry.id) ?? []]
      return was.length === now.length && was.every((e, i) => e === now[i]) && now.every((e) => entryDrawsSame(e, prev, next))
    }
    default:
      return true
  }
}
