import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelDownloadRecord, ModelDownloadsRepository } from '../../store/model-downloads-repository.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../../store/private-folder.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';
import type { HubFileInfo, HubRangeResponse } from './hub-client.js';
import type { DownloadStatus, ModelDownload } from '../../wire/local-model-schemas.js';

/** Where a download's bytes come from: the model hub, or GitHub for Tesseract's language models. */
export interface DownloadSource {
  fileInfo(repo: string, revision: string, file: string): Promise<HubFileInfo>;
  openRange(url: string, start: number, signal: AbortSignal): Promise<HubRangeResponse>;
}

/** What happens to a file once it is verified: it becomes a route. */
export interface ModelInstaller {
  /** Where in the models folder a repository file goes; throws a GatewayError for files no engine loads. */
  targetFor(repo: string, file: string): string;
  /** Makes the file (relative to the models folder) a served model; resolves to its model id. */
  install(target: string): Promise<void>;
  /** The model id a file is (or will be) served as. */
  modelIdFor(target: string): string;
}

export interface DownloadManagerSettings {
  modelsDir: string;
  /** Downloads running at once; more wait as `queued`. */
  concurrency: number;
  /** Waits between retries after a dropped connection; the download fails after the last. */
  retryDelaysMs: number[];
  /** Kept free on the disk besides the file itself. */
  diskReserveBytes: number;
}

interface Job {
  record: ModelDownloadRecord;
  /** The git blob id the source gave on the latest look (files kept in git have no SHA-256). */
  gitSha1?: string | null;
  controller?: AbortController;
  running?: Promise<void>;
  bytesPerSecond: number;
  sample: { time: number; bytes: number };
  persistedAt: number;
  listeners: Set<(download: ModelDownload) => void>;
}

const ACTIVE: ReadonlySet<string> = new Set(['queued', 'downloading', 'paused', 'verifying']);
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
const PROGRESS_INTERVAL_MS = 250;
const PERSIST_INTERVAL_MS = 1000;

class Stopped extends Error {}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (info) => info.size,
    () => 0,
  );
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Git's id of a file's content: SHA-1 of `blob <size>\0` and the bytes. */
async function gitBlobSha1Of(path: string): Promise<string> {
  const hash = createHash('sha1').update(`blob ${await sizeOf(path)}\0`);
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Downloads model files from the hub into `<models>/.partial/<id>.part`, resuming with Range after
 * a pause, a dropped connection or a restart (state in the database), verifies the SHA-256 the hub
 * published (or, for a file kept in git, its git blob id), then moves the file into the models
 * folder and has it installed. `sourceFor` says where a repository's files come from.
 */
export class DownloadManager {
  private readonly jobs = new Map<string, Job>();
  private readonly starting = new Map<string, Promise<{ download: ModelDownload; created: boolean }>>();
  private closed = false;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly sourceFor: (repo: string) => DownloadSource,
    private readonly repository: ModelDownloadsRepository,
    private readonly installer: ModelInstaller,
    private readonly settings: DownloadManagerSettings,
    private readonly log: { warn(message: string): void },
  ) {}

  /** Reads the stored downloads and picks up what was under way when the gateway stopped. */
  async restore(): Promise<void> {
    for (const record of await this.repository.all()) this.jobs.set(record.id, this.jobFor(record));
    for (const job of this.jobs.values()) {
      if (job.record.status === 'downloading' || job.record.status === 'verifying' || job.record.status === 'queued') {
        job.record.bytes_done = await sizeOf(this.partialPath(job.record.id));
        this.update(job, { status: 'queued' });
      }
    }
    this.pump();
  }

  list(): ModelDownload[] {
    return [...this.jobs.values()]
      .sort((a, b) => b.record.created_at - a.record.created_at)
      .map((job) => this.view(job));
  }

  get(id: string): ModelDownload {
    return this.view(this.job(id));
  }

  /** Starts a download, or returns the one already under way (or done) for the same file. */
  start(repo: string, file: string, revision: string): Promise<{ download: ModelDownload; created: boolean }> {
    const key = `${repo}\n${file}\n${revision}`;
    const existing = [...this.jobs.values()].find(
      (job) =>
        job.record.repo === repo &&
        job.record.file === file &&
        job.record.revision === revision &&
        ACTIVE.has(job.record.status),
    );
    if (existing) return Promise.resolve({ download: this.view(existing), created: false });
    const failed = [...this.jobs.values()].find(
      (job) =>
        job.record.repo === repo &&
        job.record.file === file &&
        job.record.revision === revision &&
        job.record.status === 'failed',
    );
    if (failed) return this.resume(failed.record.id).then((download) => ({ download, created: false }));
    let pending = this.starting.get(key);
    if (!pending) {
      pending = this.create(repo, file, revision).finally(() => this.starting.delete(key));
      this.starting.set(key, pending);
    }
    return pending;
  }

  private async create(
    repo: string,
    file: string,
    revision: string,
  ): Promise<{ download: ModelDownload; created: boolean }> {
    const target = this.installer.targetFor(repo, file);
    const info = await this.sourceFor(repo).fileInfo(repo, revision, file);
    const done = [...this.jobs.values()].find(
      (job) => job.record.target === target && job.record.status === 'completed' && job.record.sha256 === info.sha256,
    );
    if (done && (await sizeOf(join(this.settings.modelsDir, target))) === info.sizeBytes)
      return { download: this.view(done), created: false };
    if ((await sizeOf(join(this.settings.modelsDir, target))) > 0) {
      throw new GatewayError(
        409,
        'model_file_exists',
        `The models folder already has ${target}. Delete it first (DELETE /v1/local-models/files/${encodeURIComponent(target)}) to download it again.`,
        { param: 'file' },
      );
    }
    await this.checkDiskSpace(info.sizeBytes);
    const now = Date.now();
    const record: ModelDownloadRecord = {
      id: newId('dl_'),
      repo,
      file,
      revision,
      commit_sha: info.commit,
      sha256: info.sha256,
      download_url: info.downloadUrl,
      target,
      status: 'queued',
      bytes_total: info.sizeBytes,
      bytes_done: 0,
      error: null,
      created_at: now,
      updated_at: now,
    };
    await this.repository.save(record);
    const job = this.jobFor(record);
    this.jobs.set(record.id, job);
    this.pump();
    return { download: this.view(job), created: true };
  }

  async pause(id: string): Promise<ModelDownload> {
    const job = this.job(id);
    if (job.record.status !== 'downloading' && job.record.status !== 'queued') {
      throw new GatewayError(
        409,
        'download_not_running',
        `Download ${id} is ${job.record.status}; only a queued or running download can be paused.`,
      );
    }
    await this.stop(job);
    job.record.bytes_done = await sizeOf(this.partialPath(id));
    this.update(job, { status: 'paused' });
    this.pump();
    return this.view(job);
  }

  async resume(id: string): Promise<ModelDownload> {
    const job = this.job(id);
    if (job.record.status !== 'paused' && job.record.status !== 'failed') {
      throw new GatewayError(
        409,
        'download_not_paused',
        `Download ${id} is ${job.record.status}; only a paused or failed download can be resumed.`,
      );
    }
    const remaining = (job.record.bytes_total ?? 0) - (await sizeOf(this.partialPath(id)));
    await this.checkDiskSpace(remaining);
    this.update(job, { status: 'queued', error: null });
    this.pump();
    return this.view(job);
  }

  /** Cancels a download that has not completed and removes its partial file. */
  async cancel(id: string): Promise<ModelDownload> {
    const job = this.job(id);
    if (job.record.status === 'completed') {
      throw new GatewayError(
        409,
        'download_completed',
        `Download ${id} has completed; delete the model file with DELETE /v1/local-models/files/${encodeURIComponent(job.record.target)} instead.`,
      );
    }
    await this.stop(job);
    await rm(this.partialPath(id), { force: true });
    job.record.bytes_done = 0;
    if (job.record.status !== 'cancelled') this.update(job, { status: 'cancelled' });
    this.pump();
    return this.view(job);
  }

  /** Calls `listener` with every change of the download until the returned function is called. */
  subscribe(id: string, listener: (download: ModelDownload) => void): () => void {
    const job = this.job(id);
    job.listeners.add(listener);
    return () => job.listeners.delete(listener);
  }

  isFinished(download: ModelDownload): boolean {
    return TERMINAL.has(download.status);
  }

  /** Stops transfers without changing their status, so the next start resumes them. */
  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.jobs.values()].filter((job) => job.running !== undefined);
    for (const job of running) job.controller?.abort(new Stopped('shutdown'));
    await Promise.all(running.map((job) => job.running?.catch(() => undefined)));
    for (const job of running) {
      job.record.bytes_done = await sizeOf(this.partialPath(job.record.id));
      this.persist(job.record);
    }
    await this.saving;
  }

  /** Saves a copy of the record after the saves before it, so the stored state never goes back in time. */
  private persist(record: ModelDownloadRecord): void {
    const copy = { ...record };
    this.saving = this.saving
      .then(() => this.repository.save(copy))
      .catch((error: unknown) => this.log.warn(`could not store the download state of ${copy.id}: ${String(error)}`));
  }

  /** Downloads removed with their file are forgotten too, so a new download of it starts afresh. */
  forgetCompleted(target: string): void {
    for (const job of this.jobs.values()) {
      if ((job.record.target === target || dirname(job.record.target) === target) && job.record.status === 'completed')
        this.update(job, { status: 'cancelled', error: 'The model file was deleted.' });
    }
  }

  private job(id: string): Job {
    const job = this.jobs.get(id);
    if (!job)
      throw new GatewayError(
        404,
        'download_not_found',
        `No download with id "${id}". GET /v1/local-models/downloads lists them.`,
        { param: 'id' },
      );
    return job;
  }

  private jobFor(record: ModelDownloadRecord): Job {
    return {
      record,
      bytesPerSecond: 0,
      sample: { time: Date.now(), bytes: record.bytes_done },
      persistedAt: 0,
      listeners: new Set(),
    };
  }

  private partialPath(id: string): string {
    return join(this.settings.modelsDir, '.partial', `${id}.part`);
  }

  private async checkDiskSpace(needed: number): Promise<void> {
    await mkdir(this.settings.modelsDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const disk = await statfs(this.settings.modelsDir);
    const free = disk.bavail * disk.bsize;
    if (needed + this.settings.diskReserveBytes > free) {
      const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;
      throw new GatewayError(
        507,
        'insufficient_disk_space',
        `Not enough disk space for this model: it needs ${gb(needed)} and ${this.settings.modelsDir} has ${gb(free)} free (${gb(this.settings.diskReserveBytes)} is kept in reserve). Free some space or delete a model, then try again.`,
        {
          param: 'file',
        },
      );
    }
  }

  private view(job: Job): ModelDownload {
    const { record } = job;
    const running = record.status === 'downloading';
    const speed = running ? Math.round(job.bytesPerSecond) : 0;
    const remaining = record.bytes_total === null ? null : record.bytes_total - record.bytes_done;
    return {
      id: record.id,
      object: 'local_model.download',
      repo: record.repo,
      file: record.file,
      revision: record.revision,
      status: record.status as DownloadStatus,
      bytes_total: record.bytes_total,
      bytes_done: record.bytes_done,
      bytes_per_second: speed,
      eta_seconds:
        record.status === 'completed'
          ? 0
          : running && speed > 0 && remaining !== null
            ? Math.ceil(remaining / speed)
            : null,
      sha256: record.sha256,
      model: record.status === 'completed' ? this.installer.modelIdFor(record.target) : null,
      ...(record.error ? { error: record.error } : {}),
      created_at: Math.floor(record.created_at / 1000),
    };
  }

  private update(job: Job, change: Partial<ModelDownloadRecord>, persist = true): void {
    Object.assign(job.record, change, { updated_at: Date.now() });
    if (persist) {
      this.persist(job.record);
      job.persistedAt = Date.now();
    }
    const view = this.view(job);
    for (const listener of job.listeners) listener(view);
  }

  private pump(): void {
    if (this.closed) return;
    let running = [...this.jobs.values()].filter((job) => job.running !== undefined).length;
    const queued = [...this.jobs.values()]
      .filter((job) => job.record.status === 'queued' && !job.running)
      .sort((a, b) => a.record.created_at - b.record.created_at);
    for (const job of queued) {
      if (running >= this.settings.concurrency) break;
      running++;
      const controller = new AbortController();
      job.controller = controller;
      job.running = this.run(job, controller.signal).finally(() => {
        job.running = undefined;
        job.controller = undefined;
        this.pump();
      });
    }
  }

  private async stop(job: Job): Promise<void> {
    job.controller?.abort(new Stopped('stopped'));
    await job.running?.catch(() => undefined);
  }

  private async run(job: Job, signal: AbortSignal): Promise<void> {
    try {
      this.update(job, { status: 'downloading' });
      await this.transfer(job, signal);
      this.update(job, { status: 'verifying' });
      const partial = this.partialPath(job.record.id);
      const expected = job.record.sha256
        ? { name: 'SHA-256', value: job.record.sha256, of: sha256Of }
        : job.gitSha1
          ? { name: 'git blob id', value: job.gitSha1, of: gitBlobSha1Of }
          : undefined;
      if (expected) {
        const actual = await expected.of(partial);
        if (signal.aborted) return;
        if (actual !== expected.value) {
          await rm(partial, { force: true });
          this.update(job, {
            status: 'failed',
            bytes_done: 0,
            error: `The downloaded file's ${expected.name} (${actual}) does not match the source's (${expected.value}); it was discarded. Resume to download it again.`,
          });
          return;
        }
      }
      const destination = join(this.settings.modelsDir, job.record.target);
      await mkdir(dirname(destination), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      await rename(partial, destination);
      await this.installer.install(job.record.target);
      this.update(job, { status: 'completed', error: null });
    } catch (error) {
      if (signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn(`download ${job.record.id} (${job.record.repo}/${job.record.file}) failed: ${message}`);
      this.update(job, { status: 'failed', bytes_done: await sizeOf(this.partialPath(job.record.id)), error: message });
    }
  }

  /** Fetches the missing bytes into the partial file, retrying dropped connections with backoff. */
  private async transfer(job: Job, signal: AbortSignal): Promise<void> {
    const { record } = job;
    const partial = this.partialPath(record.id);
    await mkdir(dirname(partial), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    let failures = 0;
    for (;;) {
      let progressed = false;
      try {
        // A fresh look every attempt: file-host links expire, and the file may have changed.
        const source = this.sourceFor(record.repo);
        const info = await source.fileInfo(record.repo, record.revision, record.file);
        const changedInGit = job.gitSha1 != null && info.gitSha1 !== job.gitSha1;
        if (info.sha256 !== record.sha256 || info.sizeBytes !== record.bytes_total || changedInGit) {
          await rm(partial, { force: true });
          this.update(job, { sha256: info.sha256, bytes_total: info.sizeBytes, commit_sha: info.commit });
        }
        job.gitSha1 = info.gitSha1;
        this.update(job, { download_url: info.downloadUrl }, false);
        let start = await sizeOf(partial);
        if (start > info.sizeBytes) {
          await rm(partial, { force: true });
          start = 0;
        }
        if (start === info.sizeBytes) return;
        const response = await source.openRange(info.downloadUrl, start, signal);
        if (response.status === 200) start = 0;
        job.sample = { time: Date.now(), bytes: start };
        job.record.bytes_done = start;
        // Every byte received reaches the disk, even when the transfer stops: the next Range starts after it.
        const out = createWriteStream(partial, { flags: start === 0 ? 'w' : 'a', mode: PRIVATE_FILE_MODE });
        try {
          for await (const chunk of response.body as AsyncIterable<Buffer>) {
            job.record.bytes_done += chunk.length;
            progressed = true;
            this.progress(job);
            if (!out.write(chunk)) await once(out, 'drain');
          }
        } finally {
          await new Promise<void>((resolve, reject) =>
            out.end((error?: Error | null) => (error ? reject(error) : resolve())),
          );
        }
        const size = await sizeOf(partial);
        if (size === info.sizeBytes) return;
        throw new Error(`the connection ended after ${size} of ${info.sizeBytes} bytes`);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof GatewayError && error.status < 500) throw error;
        failures = progressed ? 1 : failures + 1;
        if (failures > this.settings.retryDelaysMs.length) throw error;
        job.bytesPerSecond = 0;
        this.update(job, { bytes_done: await sizeOf(partial) }, false);
        await sleep(this.settings.retryDelaysMs[failures - 1], undefined, { signal });
      }
    }
  }

  private progress(job: Job): void {
    const now = Date.now();
    const elapsed = now - job.sample.time;
    if (elapsed < PROGRESS_INTERVAL_MS) return;
    const rate = ((job.record.bytes_done - job.sample.bytes) * 1000) / elapsed;
    job.bytesPerSecond = job.bytesPerSecond === 0 ? rate : job.bytesPerSecond * 0.7 + rate * 0.3;
    job.sample = { time: now, bytes: job.record.bytes_done };
    this.update(job, {}, now - job.persistedAt >= PERSIST_INTERVAL_MS);
  }
}
