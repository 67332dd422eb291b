/**
 * The price panel's words (docs/inspector.md "The price, before saving"), pure so they are tested without a DOM.
 *
 * Applied now, the next request changes by more than the edit: the session block is read again from disk (so a
 * change made on disk since it was read goes out too), and a `file_changed` note already due for the next message is
 * then not sent. One figure for all of it read as the edit's own ("sends 28 fewer tokens" for a draft that adds a
 * line), so the edit's own effect is told apart: the apply-now price of the draft minus the apply-now price of the
 * file as it is on disk (`base`), both counted the same way. The rest is said separately, as what it is.
 */
import type { UnappliedFileView } from '../../../src-preload/contract'
import type { EditPriceView } from '../../state/files'
import { grouped, shownDifference, sideBySide, signedUsd, usd } from '../../ui/format'

/** `≈` before an estimated figure; nothing before a counted one. */
const about = (price: EditPriceView) => (price.exact ? '' : '≈')
const count = (price: EditPriceView, n: number) => `${about(price)}${grouped(Math.abs(n))}`

export interface ChoiceWords {
  /** One short line under the choice's name: what it costs. Shown for both choices, side by side. */
  readonly summary: string
  /** The figures in sentences, shown for the chosen one. */
  readonly detail: ReadonlyArray<string>
}

/**
 * The edit's own tokens in the session block, applied now: null when the file as on disk could not be priced, or
 * was priced on another basis (one counted, the other estimated), which would make the difference meaningless.
 */
export function ownTokensNow(now: EditPriceView, base: EditPriceView | null): number | null {
  if (!base || base.exact !== now.exact) return null
  return now.addedTokens - base.addedTokens
}

export function nowWords(now: EditPriceView, base: EditPriceView | null): ChoiceWords {
  // The exact difference, rounded once: the figure the Cache view gives the pass after it as lost where the price is
  // all re-bill, which a difference of two rounded figures can miss by a hundredth of a cent. The sentence below
  // writes its two sides so that they add up to it.
  const delta = now.deltaUsd
  const usdPart = delta === null ? '' : signedUsd(delta)
  // Re-billed is what this apply adds to what the next pass writes again anyway: none when that pass already
  // re-bills the block (its entry expired while the static prefix's lives on, or another file applied and not sent
  // yet moves it), which "re-bills 0 tokens" would say wrongly.
  const nothingMore = now.movedBlock !== null && now.cacheWarm && now.rebilledTokens === 0
  const split = lossSplit(now, delta)
  // The summary stays one short line beside the choice; the detail below splits the figure into the loss and the rest.
  const rebills = `re-bills ${count(now, now.rebilledTokens)} tokens`
  const summary = now.movedBlock
    ? [usdPart, nothingMore ? `re-bills nothing more: the next pass already re-bills ${blockName(now.movedBlock)}` : now.cacheWarm ? rebills : 'nothing cached to lose'].filter(Boolean).join(' · ')
    : [usdPart, 'nothing above the breakpoints moves'].filter(Boolean).join(' · ')
  const detail: string[] = []
  if (now.movedBlock) {
    detail.push(
      nothingMore
        ? `Moves ${now.movedBlock.label}, which the next pass writes again anyway (its cached copy has expired, or another edit applied and not sent yet moves it): applying this one re-bills nothing more.`
        : now.cacheWarm
          ? `Moves ${now.movedBlock.label}: the next pass writes ${count(now, now.rebilledTokens)} tokens again instead of reading them.`
          : `Moves ${now.movedBlock.label}, but nothing is in the cache to lose now (expired, or under the model's minimum): the next pass writes its prefix either way.`,
    )
  } else detail.push(`${now.label}.`)
  const own = ownTokensNow(now, base)
  if (own === null) {
    if (now.addedTokens !== 0) {
      detail.push(`In all the next pass sends ${count(now, now.addedTokens)} ${now.addedTokens > 0 ? 'more' : 'fewer'} tokens: the edit, plus what changed on disk since the session block was read, less any note already due that a file changed.`)
    }
  } else {
    detail.push(own === 0 ? 'The edit itself leaves the session block the same size.' : `The edit itself makes the session block ${count(now, own)} tokens ${own > 0 ? 'larger' : 'smaller'}.`)
    const rest = now.addedTokens - own
    if (rest !== 0) {
      detail.push(
        `Applying now also sends what changed on disk since the session block was read, and drops the note already due that a file changed: ${count(now, rest)} tokens ${rest > 0 ? 'more' : 'fewer'} of its own, ${count(now, now.addedTokens)} ${now.addedTokens >= 0 ? 'more' : 'fewer'} in all.`,
      )
    }
  }
  if (now.nextPassUsd !== null && now.withoutEditUsd !== null) {
    // The loss first, as the Cache view will count it for that pass; the rest is what the lines above say the next
    // pass sends more or less of (the edit, changes on disk, a note dropped), new to the cache and no loss.
    const parts = split ? `: ${split.lost} the cache lost${split.rest ? `, ${split.rest} the rest` : ''}` : ''
    const [next, without] = sideBySide(now.nextPassUsd, now.withoutEditUsd)
    detail.push(`Next pass ${next} instead of ${without} (${usdPart}${parts}).`)
  }
  return { summary, detail }
}

/**
 * The re-billed part of the price (`rebilledUsd`: the tokens written where they would have been read, which the Cache
 * view counts as the next pass's loss) and the rest, signed, each rounded as shown and the rest the shown difference,
 * so "+$0.0103" and "lost $0.0102" read as one figure and its part.
 */
function lossSplit(now: EditPriceView, delta: number | null): { readonly lost: string; readonly rest: string | null } | null {
  if (now.rebilledUsd === undefined || delta === null || !now.cacheWarm || now.rebilledTokens === 0) return null
  const rest = shownDifference(delta, now.rebilledUsd)
  return { lost: usd(now.rebilledUsd), rest: rest === 0 ? null : signedUsd(rest) }
}

/** The moved block in a few words: "the session block" for system[1], else its path. */
function blockName(block: { readonly path: string }): string {
  return block.path === 'system[1]' ? 'the session block' : block.path
}

export function laterWords(later: EditPriceView | null): ChoiceWords {
  if (!later) return { summary: 'nothing above the breakpoints moves', detail: ['Nothing above the breakpoints moves; the model keeps the old text until the session compacts.'] }
  const note = later.addedTokens > 0 ? `a ${count(later, later.addedTokens)}-token note` : later.addedTokens < 0 ? `${count(later, later.addedTokens)} tokens fewer` : 'no new tokens'
  // What it costs at the compaction, said beside what it costs now, so "later" never reads as free.
  const atCompaction = later.atCompaction ? `${later.atCompaction.usd === null ? `≈${later.atCompaction.tokens.toLocaleString('en-US')} tokens` : signedUsd(later.atCompaction.usd)} at the compaction` : ''
  const summary = [later.deltaUsd === null ? '' : signedUsd(later.deltaUsd), note, atCompaction].filter(Boolean).join(' · ')
  return { summary, detail: [`${capitalised(later.label)}.`, 'The model keeps the old text until the session compacts.'] }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * What a saved edit does when no session of Loupe's is selected to price it for (none open, or one imported or
 * captured, which sends no pass). A session that has already sent a pass froze its session block then: it keeps
 * sending the text it took, its next message carries a `file_changed` note (a few tokens after the breakpoints,
 * docs/context-engine.md "Changes mid-session"), and it takes the new text at its next compaction. Only a new session,
 * or one that has sent nothing yet, reads the file as it is at no extra cost. `loupeSessions`: the project's sessions
 * of Loupe's (0: the first one is still to come).
 */
export function withoutSessionWords(path: string, loupeSessions: number): string {
  if (loupeSessions === 0) return `This project has no session yet: the first pass of its first session reads the saved ${path} as it is, at no extra cost.`
  return `No session is selected, so nothing is priced. A saved edit is read as it is by the first pass of a new session, or of one that has sent nothing yet. A session that has already sent a pass keeps its earlier text of ${path}: its next message carries a short note that the file changed on disk (a few tokens; nothing cached moves), and it takes the new text at its next compaction. Select a session to see the price for it.`
}

/**
 * The line after an edit is applied now (`done`: "Saved CLAUDE.md and applied it now", "Applied CLAUDE.md now"). The
 * session block is frozen again, so the next pass writes it and everything after it again, not the block alone: with
 * the price it was applied at, the figures the price panel showed.
 */
export function appliedNowWords(done: string, price: EditPriceView | null, files = 1): string {
  const figures = price ? ` (${nowWords(price, null).summary})` : ''
  return `${done}: the next pass sends ${files === 1 ? 'it' : 'them'}, and writes the session block and everything after it again${figures}.`
}

/** The line after such a save: the same, in the past tense of the save. */
export function savedWithoutSessionWords(path: string, loupeSessions: number): string {
  if (loupeSessions === 0) return `Saved ${path}. The first pass of a new session reads it as it is now.`
  return `Saved ${path}. The first pass of a new session reads it as it is now; a session that has already sent a pass is told at its next message that it changed on disk, and takes the new text at its next compaction.`
}

/**
 * The bar of files the session does not send as they are on disk (`unapplied`): which, why it matters, and what
 * applying them now costs. Applying reads the whole session block again from disk, so it re-bills the block: the
 * price is that of the block, whatever the number of files. `busy`: a turn or a compaction is running, and applying
 * waits for it. `changes`: how each file differs; a file whose text on disk is as the session read it, cut otherwise
 * only because another grew or shrank, is said to be sent cut, not to differ on disk (a path without one differs).
 */
export function unappliedWords(paths: ReadonlyArray<string>, price: EditPriceView | null, busy: boolean, changes: ReadonlyArray<UnappliedFileView> = []): { readonly what: string; readonly cost: string; readonly why: string } {
  const one = paths.length === 1
  const kindOf = (path: string) => changes.find((c) => c.path === path)?.kind ?? 'changed'
  const of = (kind: UnappliedFileView['kind']) => paths.filter((p) => kindOf(p) === kind)
  const differ = of('changed')
  const parts = [
    ...(differ.length > 0 ? [`${differ.join(', ')} ${differ.length === 1 ? 'differs' : 'differ'} on disk from what the session sends`] : []),
    ...(of('cut_shorter').length > 0 ? [`${of('cut_shorter').join(', ')} would be sent cut shorter by the instructions budget`] : []),
    ...(of('cut_longer').length > 0 ? [`${of('cut_longer').join(', ')} would be sent cut longer by the instructions budget`] : []),
  ]
  const what = `${parts.join('; ')}.`
  // Against leaving the files for the next compaction, which is what the session does otherwise (and which may cost
  // a note that a file changed): so the figure can differ from the draft's, priced against not saving it at all.
  const why = `The session keeps the text it read until its next compaction. Applying now reads the session block again from disk${price && !busy ? `; the price is against leaving ${one ? 'it' : 'them'} for the next compaction` : ''}.`
  if (busy) return { what, cost: 'Applying now waits for the session to be idle.', why }
  if (!price) return { what, cost: 'Applying now makes the next pass write the session block and everything after it again.', why }
  const summary = nowWords(price, null).summary
  // "re-bills nothing more: the next pass already …" names the pass itself.
  return { what, cost: `Applying now: ${summary}${summary.includes('the next pass') ? '' : ' on the next pass'}.`, why }
}
