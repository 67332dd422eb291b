/**
 * The session's model, and switching it (decision 0021). The cache is per model, so a switch makes the next pass
 * write its prompt afresh, but for what the other model still holds of it (a switch back): choosing another model
 * first shows what that costs (cache.priceEdit), and only "Switch" switches. Nothing is cached before the first
 * pass, so a new session's switch costs nothing and is made at once. A running turn keeps its model: the choice waits
 * until it ends.
 *
 * The choice always shows the model the session uses (decision 0029): the model asked about is named in the question
 * beside it, which stays open while the user goes on, and is priced again when the conversation has changed since.
 * A dated id shows as its model, and a model the app does not know as itself, with the app's models to switch to
 * (decision 0056); a retired model is named so, and is not offered anew (decision 0065).
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { findModelIn, MODEL_NAMES } from '../../../src-preload/models'
import { priceModelSwitch, switchModel } from './actions'
import { modelChoiceTitle, modelOptions } from './model-choice'
import { useMessageBoxAfterRemoval } from './focus'
import { useModelSwitchRequest } from './model-switch-request'
import { switchCost } from './switch-cost'
import { switchQuestionState, type SwitchQuestion } from './switch-question'

export function ModelSwitch({
  sessionId,
  model,
  prefix,
  running,
  conversationAt,
  now,
}: {
  sessionId: string
  model: string
  prefix: string
  running: boolean
  conversationAt: string
  /** The moment the models' lives are read at (useModelDay). */
  now: number
}) {
  const [pending, setPending] = useState<SwitchQuestion | null>(null)
  const [asking, setAsking] = useState<string | null>(null)
  const lastAsked = useRef<string | null>(null)
  // Another session, or a model switched from elsewhere: a question about the old one no longer applies. Not on the
  // first render: a question the palette asked before the chat was shown (decision 0032) is asked as it mounts.
  const shownFor = useRef(`${sessionId} ${model}`)
  useEffect(() => {
    if (shownFor.current === `${sessionId} ${model}`) return
    shownFor.current = `${sessionId} ${model}`
    setPending(null)
    setAsking(null)
    lastAsked.current = null
  }, [sessionId, model])

  const labelOf = (id: string) => findModelIn(id, MODEL_NAMES)?.label ?? id
  /** `again`: the question is open and priced anew; only the user's own choice is ever switched without a Switch. */
  const ask = async (next: string, at: string, again = false) => {
    lastAsked.current = next
    setAsking(next)
    const priced = await priceModelSwitch(sessionId, next)
    // A later choice made while this one was priced wins.
    if (lastAsked.current !== next) return
    setAsking(null)
    // Before the first pass nothing is cached: nothing to weigh, switched at once.
    if (priced.ok && priced.price === null) return again ? setPending(null) : void switchModel(sessionId, next)
    setPending({ model: next, price: priced.ok ? priced.price : null, error: priced.ok ? null : priced.error, pricedAt: at, from: model })
  }
  const choose = (next: string) => {
    if (next === model) {
      lastAsked.current = null
      setAsking(null)
      return setPending(null)
    }
    void ask(next, conversationAt)
  }
  const state = pending ? switchQuestionState(pending, running, conversationAt, model) : null
  // The price was for the prompt as it was: once the passes sent since have ended, it is asked again.
  useEffect(() => {
    // (Not once the session uses that model: the switch's own entry changes the conversation too.)
    if (pending && pending.model !== model && state === 'to_price_again' && asking === null) void ask(pending.model, conversationAt, true)
  }, [pending, model, state, asking, conversationAt])
  // Asked from the palette: the same question, with the keyboard on it, on Keep while the switch is priced, then on
  // Switch (decision 0032). Switched at once (nothing cached yet), the keyboard goes to the choice that shows it.
  const requested = useModelSwitchRequest((s) => (s.asked?.sessionId === sessionId ? s.asked : null))
  const keyboardToQuestion = useRef(false)
  // The first move is the command's own (wherever the view change left the keyboard: the chat's heading, say); later
  // ones only follow the keyboard the question holds, so a user who went elsewhere while it was priced keeps it.
  const keyboardTaken = useRef(false)
  const choice = useRef<HTMLSelectElement>(null)
  const switchButton = useRef<HTMLButtonElement>(null)
  const keepButton = useRef<HTMLButtonElement>(null)
  useLayoutEffect(() => {
    if (!requested) return
    useModelSwitchRequest.setState({ asked: null })
    keyboardToQuestion.current = true
    keyboardTaken.current = false
    choose(requested.model)
  }, [requested])
  const questionFor = pending?.model ?? asking
  useLayoutEffect(() => {
    if (!keyboardToQuestion.current) return
    // Asked as the chat mounts: this runs in the same commit as the request is taken, before the question is up.
    if (questionFor === null && !keyboardTaken.current) return
    const at = document.activeElement
    const ours = !keyboardTaken.current || at === null || at === document.body || at === keepButton.current
    keyboardTaken.current = true
    if (questionFor === null) {
      keyboardToQuestion.current = false
      if (ours) choice.current?.focus()
    } else if (state === 'priced' && !switchButton.current?.disabled) {
      keyboardToQuestion.current = false
      if (ours) switchButton.current?.focus()
    } else if (ours) keepButton.current?.focus()
  }, [questionFor, state])
  const confirm = async () => {
    if (!pending || state !== 'priced') return
    if (await switchModel(sessionId, pending.model)) setPending(null)
  }
  const keep = () => {
    lastAsked.current = null
    setAsking(null)
    setPending(null)
  }
  // Esc on the question, or on the choice that asked it, answers Keep: the innermost thing Esc closes, so it is
  // handled, and does not also stop a turn (features/palette/shortcuts.ts).
  const keepOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || (pending === null && asking === null)) return
    e.preventDefault()
    keep()
  }

  // The session's model not read yet: nothing to choose from.
  if (model === '') return prefix ? <span className="model-name">{prefix}</span> : null
  // The session's model as it spells it (a dated id too), or one the app does not know, above the app's models (decision 0056).
  const options = modelOptions(model, now)
  // A model the app has no figures for, or one the API no longer serves: the choice is marked, to be switched.
  const cannotSend = options.some((o) => o.current && !o.choosable)
  // A question about leaving a model the session no longer uses is closed (its state is cleared by the effect above).
  const asked = state === 'closed' ? null : (pending?.model ?? asking)
  // Two items of the header's row: the choice, and under the whole header the question a switch asks first.
  return (
    <>
      <span className="model-switch">
        {/* A tag of its own, not "… ·": the separator was left dangling at a line's end when the choice wrapped under it. */}
        {prefix && <span className="model-name">{prefix}</span>}
        <select
          ref={choice}
          aria-label="Model"
          // The model the session's passes use, whatever is being asked about: the question names that one.
          value={model}
          // Not disabled while the price is asked for: a disabled select drops the keyboard's focus.
          disabled={running}
          data-cannot-send={cannotSend || undefined}
          title={running ? 'The turn keeps its model: switch once it ends' : modelChoiceTitle(model, now)}
          onChange={(e) => choose(e.target.value)}
          onKeyDown={keepOnEscape}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={!o.choosable}>
              {o.label}
            </option>
          ))}
        </select>
      </span>
      {asked !== null && (
        <SwitchQuestionGroup onKeyDown={keepOnEscape}>
          <span data-testid="model-switch-price">
            {pending === null || state === 'to_price_again'
              ? `Pricing a switch to ${labelOf(asked)}…`
              : state === 'waits_for_turn'
                ? `Switching to ${labelOf(pending.model)}: priced again once this turn ends (the turn keeps ${labelOf(model)}).`
                : pending.error !== null
                  ? `The switch to ${labelOf(pending.model)} could not be priced: ${pending.error}.`
                  : `Switching to ${labelOf(pending.model)} ${switchCost(pending.price!)}`}
          </span>
          {/* The two answers stay side by side: one beside the price and the other under it read as unrelated. */}
          <span className="model-switch-answers">
            <button ref={switchButton} type="button" disabled={state !== 'priced'} onClick={() => void confirm()}>
              Switch
            </button>
            <button ref={keepButton} type="button" onClick={keep}>
              Keep <bdi>{labelOf(model)}</bdi>
            </button>
          </span>
        </SwitchQuestionGroup>
      )}
    </>
  )
}

/**
 * The question, which goes once Switch or Keep is pressed: the keyboard that pressed it goes on to the message box, as
 * after the other controls that go once used (an approval, Stop, Retry), not to the chat's heading.
 */
function SwitchQuestionGroup({ children, onKeyDown }: { children: ReactNode; onKeyDown(e: KeyboardEvent): void }) {
  const group = useRef<HTMLDivElement>(null)
  useMessageBoxAfterRemoval(group)
  return (
    <div ref={group} className="model-switch-ask" role="group" aria-label="Switch the model" onKeyDown={onKeyDown}>
      {children}
    </div>
  )
}
