import type { Problem } from '../../api/problem'
import { emptyStep, MAX_STEPS, type StepDraft } from './chain-draft'
import { ChoiceList } from './choice-list'

type Option = { id: string; label: string }

/** The API's complaint about step `index` or any field in it ("steps.1.requiredUserIds"). */
const stepError = (problem: Problem | undefined, index: number) =>
  problem?.details.find((detail) => detail.field === `steps.${index}` || detail.field.startsWith(`steps.${index}.`))?.error

/**
 * The chain's steps, in order: each approved by one person holding one of the roles ticked or named
 * among the people ticked, a different person per step; the creator only where the step allows it.
 */
export function StepFields({
  steps,
  onChange,
  roles,
  people,
  problem,
}: {
  steps: StepDraft[]
  onChange: (steps: StepDraft[]) => void
  roles: Option[]
  people: Option[]
  problem?: Problem
}) {
  const update = (key: number, change: Partial<StepDraft>) => onChange(steps.map((step) => (step.key === key ? { ...step, ...change } : step)))
  return (
    <fieldset class="fieldset">
      <legend>Steps</legend>
      <p class="field-hint">Each step is approved by one person; no one approves two steps of a chain. Steps are approved in order.</p>
      {steps.map((step, index) => {
        const error = stepError(problem, index)
        return (
          <div key={step.key} class="step-fields" role="group" aria-label={`Step ${index + 1}`}>
            <p class="step-title">Step {index + 1}</p>
            <ChoiceList legend="Any holder of these roles" options={roles} chosen={step.roleIds} onChange={(roleIds) => update(step.key, { roleIds })} />
            <ChoiceList legend="Or one of these people" options={people} chosen={step.userIds} onChange={(userIds) => update(step.key, { userIds })} />
            <label class="check">
              <input type="checkbox" checked={step.allowCreatorApproval} onChange={(event) => update(step.key, { allowCreatorApproval: event.currentTarget.checked })} />
              The payment’s creator may approve this step
            </label>
            {error && <p class="field-error">{error}</p>}
            {steps.length > 1 && (
              <button type="button" class="button quiet" onClick={() => onChange(steps.filter((other) => other.key !== step.key))}>
                Remove step {index + 1}
              </button>
            )}
          </div>
        )
      })}
      {steps.length < MAX_STEPS && (
        <button type="button" class="button" onClick={() => onChange([...steps, emptyStep()])}>
          Add step
        </button>
      )}
    </fieldset>
  )
}
