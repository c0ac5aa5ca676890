import { formatUptime } from '../../../lib/format';
import { useGatewayStatus } from '../api/get-status';

export function StatusBadge() {
  const status = useGatewayStatus();
  if (status.isPending) return <span className="badge">Checking gateway…</span>;
  if (status.isError) {
    return (
      <span className="badge badge-error" role="status" title={status.error.message}>
        <span className="dot" /> Gateway unreachable
      </span>
    );
  }
  const s = status.data;
  const ok = s.status === 'ok';
  const title = ok
    ? `Version ${s.version} · up ${formatUptime(s.uptime_seconds)} · OCR ${s.checks.ocr ? 'ready' : 'off'} · ASR ${s.checks.asr ? 'ready' : 'off'}`
    : 'The gateway is warming up';
  return (
    <span
      className={`badge ${ok ? 'badge-ok' : 'badge-warn'}`}
      role="status"
      title={title}
      data-testid="gateway-status"
    >
      <span className="dot" /> {ok ? `Gateway ok · v${s.version}` : 'Gateway starting'}
    </span>
  );
}
