/** A dialog form's Cancel and submit buttons; while `saving`, the submit button says so and waits. */
export function FormActions({
  submitLabel,
  onCancel,
  saving = false,
  disabled = false,
}: {
  submitLabel: string;
  onCancel(): void;
  saving?: boolean;
  /** The form is not ready to send. */
  disabled?: boolean;
}) {
  return (
    <div className="row dialog-actions">
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={saving || disabled}>
        {saving ? 'Saving…' : submitLabel}
      </button>
    </div>
  );
}
