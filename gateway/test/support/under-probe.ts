import { afterAll, beforeAll } from 'vitest';
import { createMemberKey, startLatencyProbe, type ProbeReport } from './latency-probe.js';
import { json, startGateway, type Json, type StartOptions, type TestGateway } from './start-gateway.js';

/**
 * The slowest answer another key may see while an attack runs (ms). A frozen event loop showed
 * seconds; the margin over the usual tens of milliseconds is for a shared 2-core CI machine.
 */
export const OTHER_KEY_WORST_MS = 1500;

/** Sends an attack while another key (`member`) polls the gateway: the attack's status and body, and what the other key saw. */
export async function underProbe(
  gateway: TestGateway,
  member: string,
  attack: () => Promise<Response>,
): Promise<{ status: number; body: Json; report: ProbeReport }> {
  const probe = startLatencyProbe(gateway, member);
  const response = await attack();
  const body = await json(response);
  const report = await probe.stop();
  return { status: response.status, body, report };
}

/** A document as the data URL /v1/ocr, /v1/ocr/render and /v1/vision/analyze take. */
export const dataUrl = (bytes: Buffer, type: string): string => `data:${type};base64,${bytes.toString('base64')}`;

/** Starts a gateway and a Member key of its own before a file's tests (handed to `use`) and closes the gateway after them. */
export function probedGatewayForFile(
  use: (started: { gateway: TestGateway; member: string }) => void,
  options: StartOptions = {},
): void {
  let gateway: TestGateway | undefined;
  beforeAll(async () => {
    gateway = await startGateway(options);
    use({ gateway, member: await createMemberKey(gateway) });
  });
  afterAll(() => gateway?.close());
}
