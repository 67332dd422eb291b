/**
 * Puts the keyboard in a field a command has just asked for (Mod+L's message box, a palette command's field or
 * editor), so that nothing typed right after the command is lost.
 *
 * A key is its own task: the user (or a test typing at full speed) can press the next one before the next animation
 * frame. So the field is looked for at once, after the view the command chose has been rendered (flushSync), and
 * focused in the same task as the command when it is there.
 *
 * A field that is not there yet (a file still being read, Monaco still loading) is waited for, and what is typed
 * meanwhile is held and put into it when it appears (decision 0031). Anything else the user does meanwhile (a click,
 * a key that is not text, a shortcut) ends the wait: the keyboard is theirs again, and the field does not take it
 * later. So does the field not appearing within a few seconds.
 */
import { flushSync } from 'react-dom'

/** A field the keyboard can be put in, and text typed into, as a keystroke would. */
export interface TypingTarget {
  focus(): void
  type(text: string): void
}

/** How long a field is waited for; past it, the field does not take the keyboard when it comes. */
export const FIELD_WAIT_MS = 5000

/** Keys that only change another key: typing a capital holds Shift, which must not end the wait. */
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock', 'NumLock', 'Fn'])

/** The wait in progress, if any: a newer command's field replaces it. */
let endWait: (() => void) | null = null

/**
 * What a command's field is now: there to type in, not there yet (null), or there but not taking typing
 * ('unavailable': a read-only session's message box), which is not waited for.
 */
export type FieldNow = TypingTarget | null | 'unavailable'

/** Focuses the field `find` returns, now if it is on the page, else as soon as it appears (see above). */
export function focusWhenShown(find: () => FieldNow): void {
  endWait?.()
  // Whatever the command changed is rendered now, not in a later task (state set outside React renders in a microtask).
  flushSync(() => {})
  const now = find()
  if (now === 'unavailable') return
  if (now !== null) return now.focus()

  let held = ''
  const onKey = (e: KeyboardEvent) => {
    if (MODIFIERS.has(e.key) || e.isComposing) return
    const text = e.key.length === 1 && (!(e.ctrlKey || e.metaKey || e.altKey) || e.getModifierState('AltGraph'))
    if (text) held += e.key
    else if (e.key === 'Backspace' && held !== '') held = held.slice(0, -1)
    else return stop()
    e.preventDefault()
    e.stopPropagation()
  }
  const appeared = () => {
    const target = find()
    if (target === null) return
    stop()
    if (target === 'unavailable') return
    target.focus()
    if (held !== '') target.type(held)
  }
  const observer = new MutationObserver(appeared)
  const timer = setTimeout(() => stop(), FIELD_WAIT_MS)
  const stop = () => {
    observer.disconnect()
    clearTimeout(timer)
    window.removeEventListener('keydown', onKey, true)
    window.removeEventListener('pointerdown', stop, true)
    if (endWait === stop) endWait = null
  }
  endWait = stop
  // In the capture phase, after the shortcuts' own listener (installed first): Mod+K and the like still work, and
  // end the wait.
  window.addEventListener('keydown', onKey, true)
  window.addEventListener('pointerdown', stop, true)
  // Attributes too: a field that is on the page but disabled, or a button not enabled yet, becomes ready in place.
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'aria-label'] })
}

/** A text field (input, textarea) or control found by `selector`; disabled, it takes no typing. */
export function fieldTarget(selector: string): () => FieldNow {
  return () => {
    const element = document.querySelector<HTMLElement>(selector)
    if (element === null) return null
    if ((element as HTMLInputElement).disabled) return 'unavailable'
    return { focus: () => element.focus(), type: (text) => typeInto(element, text) }
  }
}

/** Types text at the caret of a text field as the keyboard does: an input event React sees, one step of undo. */
function typeInto(element: HTMLElement, text: string): void {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return
  if (document.activeElement === element && document.execCommand('insertText', false, text)) return
  element.setRangeText(text, element.selectionStart ?? element.value.length, element.selectionEnd ?? element.value.length, 'end')
  element.dispatchEvent(new Event('input', { bubbles: true }))
}
