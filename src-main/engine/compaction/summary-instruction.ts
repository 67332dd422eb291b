/**
 * The summary instruction (docs/compaction.md "Stage 2, the summary"). It keeps what the next passes need — the
 * user's requests quoted, decisions, facts with paths and line numbers, changes made, commands and results, errors
 * and fixes, open items and next steps, the current work — and drops greetings, repeated output and file contents
 * that can be read again. An `<analysis>` scratchpad is allowed and stripped (summary-text.ts).
 *
 * The text avoids two things on purpose: a first line in brackets (an app note, which a reader of the
 * conversation skips, docs/simulator.md) and the word that introduces the user's focus anywhere but on the focus
 * line itself.
 */

export type InstructionForm = 'cut' | 'upto' | 'standalone'

export interface InstructionOptions {
  readonly form: InstructionForm
  readonly focus: string | null
  readonly instructions: string | null
  /** For `upto`: the beginning of the first kept message, quoted so the model knows where the summary stops. */
  readonly keptStart: string | null
  /** Assistant turns kept verbatim after the summary. */
  readonly keptSteps: number
}

export const STANDALONE_SYSTEM =
  'You summarise a conversation between a user and a coding agent, so that the agent can continue the work from ' +
  'your summary alone. Be exact: quote the user, keep file paths, line numbers, commands and error messages as ' +
  'they were. Respond with text only.'

const SECTIONS = [
  '1. User requests: every request and correction the user made, quoted verbatim, oldest first.',
  '2. Decisions: what was decided and why, including approaches tried and rejected.',
  '3. Files and code: every file read, created or changed, with its path, the line numbers that matter and what was learned about it.',
  '4. Changes made: what was edited or written, and the state it was left in.',
  '5. Commands run: each command that mattered and its result (pass, fail, the key output line).',
  '6. Errors and fixes: each error met, and how it was fixed or that it is still open.',
  '7. Open items and next steps: what remains to be done, in the user’s words where possible.',
  '8. Current work: what was being done right before this summary.',
]

function quoteStart(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > 160 ? `${one.slice(0, 160)}…` : one
}

export function summaryInstruction(options: InstructionOptions): string {
  const lines: string[] = []
  lines.push('Loupe asks for a summary of the conversation so far, for a compaction (this request comes from the app, not from the user).')
  lines.push('')
  switch (options.form) {
    case 'cut':
      lines.push('Write a summary of everything above. It will replace those messages: the conversation continues from your summary.')
      break
    case 'upto': {
      const steps = `${options.keptSteps} step${options.keptSteps === 1 ? '' : 's'}`
      const where = options.keptStart === null ? 'the last assistant message' : `the assistant message that begins “${quoteStart(options.keptStart)}”`
      lines.push(
        `Write a summary of the conversation above up to, and not including, ${where}. That message and everything ` +
          `after it (the last ${steps}) will follow your summary verbatim, so leave them out. The summary replaces ` +
          'the earlier messages.',
      )
      break
    }
    case 'standalone':
      lines.push('Write a summary of the conversation above. It will replace those messages: the conversation continues from your summary.')
      break
  }
  lines.push('Respond with text only, do not call tools.')
  lines.push('')
  lines.push('Keep, with the exact wording where it matters:')
  lines.push(...SECTIONS)
  lines.push('')
  lines.push(
    'If the conversation opens with the summary of an earlier compaction, it is the only record of that part of the ' +
      'work: carry everything it records into your sections, merged with what came after it.',
  )
  lines.push('')
  lines.push(
    'Drop greetings, thanks, repeated output, and file contents that can be read again (name the file and the ' +
      'lines instead). Leave out any thinking.',
  )
  lines.push('You may first think inside <analysis>…</analysis>; then write the summary inside <summary>…</summary>. Only the summary is kept.')
  if (options.focus !== null && options.focus.trim() !== '') {
    const focus = options.focus.replace(/\s+/g, ' ').trim()
    lines.push('')
    lines.push(`The user asks the summary to keep, above all: ${focus}`)
    lines.push('Put that first, in a section of its own, in detail.')
    lines.push(`Focus: ${focus}`)
  }
  if (options.instructions !== null && options.instructions.trim() !== '') {
    lines.push('')
    lines.push(`Further instructions for the summary: ${options.instructions.trim()}`)
  }
  return lines.join('\n')
}
