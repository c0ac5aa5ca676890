import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../../components/error-notice';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { Agent, AgentFields } from '../agent-types';
import { useCreateAgent } from '../api/create-agent';
import { useUpdateAgent } from '../api/update-agent';

interface Props {
  /** The agent to edit; without one the form creates an agent. */
  agent: Agent | null;
  models: GatewayModel[];
  onSaved(agent: Agent): void;
  onCancel(): void;
}

export function AgentForm({ agent, models, onSaved, onCancel }: Props) {
  const [name, setName] = useState(agent?.name ?? '');
  const [modelChoice, setModel] = useState<string | null>(agent?.model ?? null);
  const [description, setDescription] = useState(agent?.description ?? '');
  const [instructions, setInstructions] = useState(agent?.instructions ?? '');
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const mutation = agent ? update : create;
  const model = agent && modelChoice === agent.model ? agent.model : resolveModel(models, modelChoice);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Function tools (set through the API) are kept as they are.
    const fields: AgentFields = {
      name: name.trim(),
      model,
      description: description.trim() || null,
      instructions: instructions.trim() || null,
      tools: agent?.tools ?? [],
    };
    if (agent) update.mutate({ id: agent.id, fields }, { onSuccess: onSaved });
    else create.mutate(fields, { onSuccess: onSaved });
  };

  return (
    <form className="card stack" onSubmit={submit} aria-label={agent ? 'Edit agent' : 'New agent'}>
      <div className="card-title">{agent ? `Edit ${agent.name}` : 'New agent'}</div>
      <div className="two-col">
        <label className="field">
          <span>Name</span>
          <input
            className="input"
            required
            maxLength={200}
            value={name}
            placeholder="Support triage"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <ModelPicker models={models} value={model} onChange={setModel} />
      </div>
      <label className="field">
        <span>Description</span>
        <input
          className="input"
          maxLength={2000}
          value={description}
          placeholder="What this agent is for"
          onChange={(e) => setDescription(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Instructions</span>
        <textarea
          className="textarea"
          rows={4}
          value={instructions}
          placeholder="You answer in one short sentence."
          onChange={(e) => setInstructions(e.target.value)}
        />
      </label>
      {mutation.isError && <ErrorNotice error={mutation.error} title="The agent could not be saved" />}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || !model || mutation.isPending}>
          {mutation.isPending ? 'Saving…' : agent ? 'Save agent' : 'Create agent'}
        </button>
        {agent && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
