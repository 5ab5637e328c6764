// Numeric inputs that say when they refuse a value. Observable's Inputs.range
// and Inputs.number keep their old value when the typed number is outside
// [min, max] or off the step, silently (and the slider still jumps to the
// clamped end). This adds an inline message naming the allowed values and the
// value still in effect, and puts the slider back where the value is.

export interface Bounds {
  /** How the option is named in the message: "α", "cap N∞". */
  name: string;
  min: number;
  max: number;
  /** The step the input accepts (1 for whole numbers); omitted: any value in range. */
  step?: number;
}

/** The sentence shown under an input whose typed text was refused. */
export function refusedText(raw: string, inEffect: number, {name, min, max, step}: Bounds): string {
  const allowed = step === 1 ? `a whole number from ${min} to ${max}` : step !== undefined ? `${min} to ${max} in steps of ${step}` : `${min} to ${max}`;
  const typed = raw.trim() === "" ? "an empty box" : `"${raw}"`;
  return `${name} must be ${allowed}; ${typed} is not, so ${name} = ${inEffect} is still in effect.`;
}

/**
 * Wraps an Inputs.range / Inputs.number form: on every edit of its number box,
 * shows refusedText() under it when the box holds a value the input refuses,
 * and clears it otherwise. The form, its value and its events are unchanged.
 */
export function withBoundsMessage<T extends HTMLElement & {value: number}>(form: T, bounds: Bounds, testId: string): T {
  const box = form.querySelector<HTMLInputElement>("input[type=number]");
  if (!box) return form;
  const slider = form.querySelector<HTMLInputElement>("input[type=range]");
  const message = document.createElement("p");
  message.className = "input-refused";
  message.setAttribute("role", "status");
  message.setAttribute("data-testid", testId);
  message.hidden = true;
  // Inputs lay the label and the box out in a flex row: the message takes a line of its own under them.
  form.style.flexWrap = "wrap";
  form.append(message);
  const check = () => {
    // The form's own handler runs first (an inline oninput) and keeps its value when checkValidity() fails.
    if (box.value.trim() !== "" && box.checkValidity()) {
      message.hidden = true;
      message.textContent = "";
      return;
    }
    message.textContent = refusedText(box.value, form.value, bounds);
    message.hidden = false;
    if (slider) slider.valueAsNumber = form.value;
  };
  box.addEventListener("input", check);
  box.addEventListener("change", check);
  return form;
}

/**
 * Switches an Inputs form (a slider with its number box, a radio group) on or
 * off: every control in it is disabled and the form is marked, so an option
 * that has no effect under the other options cannot be moved. Its value is
 * kept for when it is switched back on.
 */
export function setInputEnabled(form: HTMLElement, enabled: boolean): void {
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select")) control.disabled = !enabled;
  form.classList.toggle("input-off", !enabled);
  form.setAttribute("aria-disabled", String(!enabled));
}
