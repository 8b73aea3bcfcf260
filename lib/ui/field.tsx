import type { ReactNode } from "react";

interface FieldProps {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  type?: string;
  defaultValue?: string | undefined;
  autoComplete?: string;
  required?: boolean;
  inputMode?: "text" | "numeric" | "tel" | "email";
  placeholder?: string;
}

/** A labelled input with its server-side error tied to it (aria-invalid + aria-describedby). */
export function Field({
  name,
  label,
  error,
  hint,
  type = "text",
  defaultValue,
  ...rest
}: FieldProps) {
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={name}>
        {label}
        {rest.required ? null : <span className="muted"> (optional)</span>}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input
        id={name}
        name={name}
        type={type}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...rest}
      />
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface SelectProps {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
  defaultValue?: string | undefined;
  autoComplete?: string;
}

export function SelectField({
  name,
  label,
  options,
  error,
  defaultValue,
  autoComplete,
}: SelectProps) {
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={name}>{label}</label>
      <select
        id={name}
        name={name}
        defaultValue={defaultValue}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        required
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${name}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
