import { useState } from 'react';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useRuns } from '../api/list-runs';
import { RUN_GROUP_KEY, type EvalObject } from '../eval-types';
import { runGroups } from '../run-results';
import { NewRunForm } from './new-run-form';
import { RunCompare } from './run-compare';
import { RunGroupResults } from './run-group-results';
import { RunTable } from './run-table';

/** One eval: its runs and their progress, the results of the runs started together, a new run, two runs compared. */
export function EvalDetail({ evaluation, models }: { evaluation: EvalObject; models: GatewayModel[] }) {
  const runs = useRuns(evaluation.id);
  const [groupIndex, setGroupIndex] = useState(0);
  const [showNewRun, setShowNewRun] = useState(false);
  if (runs.isPending) return <Loading label="Loading the runs…" />;
  if (runs.isError)
    return <ErrorNotice error={runs.error} title="The runs could not be loaded" onRetry={() => runs.refetch()} />;
  const list = runs.data.data;
  const groups = runGroups(list, RUN_GROUP_KEY);
  const group = groups[Math.min(groupIndex, groups.length - 1)];
  return (
    <section className="stack" aria-label={`Eval ${evaluation.name}`}>
      <section className="card table-card" aria-label="Runs">
        <div className="card-title table-card-pad row">
          <span className="grow">Runs of “{evaluation.name}”</span>
          {list.length > 0 && (
            <button type="button" className="btn btn-sm" onClick={() => setShowNewRun(!showNewRun)}>
              {showNewRun ? 'Close' : '+ New run'}
            </button>
          )}
        </div>
        {showNewRun && list[0] && (
          <div className="table-card-pad">
            <NewRunForm
              evalId={evaluation.id}
              latest={list[0]}
              models={models}
              onStarted={() => {
                setShowNewRun(false);
                setGroupIndex(0);
              }}
            />
          </div>
        )}
        {list.length === 0 ? (
          <p className="small muted table-card-pad">
            No runs yet. Runs started here or through the API (the openai SDK's client.evals.runs) appear here.
          </p>
        ) : (
          <RunTable runs={list} />
        )}
      </section>
      {group && (
        <section className="card stack" aria-label="Results">
          <div className="row">
            <span className="card-title grow">Results</span>
            {groups.length > 1 && (
              <label className="field">
                <span className="visually-hidden">Runs shown</span>
                <select
                  className="select"
                  aria-label="Runs shown"
                  value={Math.min(groupIndex, groups.length - 1)}
                  onChange={(e) => setGroupIndex(Number(e.target.value))}
                >
                  {groups.map((g, i) => (
                    <option key={g[0].id} value={i}>
                      {g.map((run) => run.name).join(' | ')}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
          <RunGroupResults runs={group} />
        </section>
      )}
      {list.length > 1 && (
        <section className="card stack" aria-label="Compare two runs">
          <div className="card-title">Compare two runs</div>
          <RunCompare runs={list} />
        </section>
      )}
    </section>
  );
}
