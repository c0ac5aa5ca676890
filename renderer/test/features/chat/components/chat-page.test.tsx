import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { useConversationsStore } from '../../../../src/features/chat/stores/conversations-store';
import { ChatPage } from '../../../../src/features/chat/components/chat-page';
import { chatModelList } from '../../../support/chat-model-card';
import { renderPage } from '../../../support/render-page';

const MODELS = chatModelList('svc-small');

/** A chat stream the test feeds by hand; aborting the request errors it like a real fetch. */
function controllableStream(signal: AbortSignal | null | undefined) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  signal?.addEventListener('abort', () =>
    controller.error(new DOMException('The operation was aborted.', 'AbortError')),
  );
  const encoder = new TextEncoder();
  return { body, send: (text: string) => controller.enqueue(encoder.encode(text)), close: () => controller.close() };
}

const frame = (content: string) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

let stream: ReturnType<typeof controllableStream> | null = null;
let sentBody: unknown = null;

beforeEach(() => {
  localStorage.clear();
  useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' });
  useConversationsStore.setState({ conversations: [], activeId: null });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/models')
        return new Response(JSON.stringify(MODELS), { status: 200, headers: { 'content-type': 'application/json' } });
      if (url === '/account/me') return new Response('{}', { status: 404 });
      if (url === '/v1/chat/completions') {
        sentBody = JSON.parse(String(init?.body));
        stream = controllableStream(init?.signal);
        return new Response(stream.body, {
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'x-request-cost': '0.00042' },
        });
      }
      throw new Error(`unexpected ${url}`);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  stream = null;
});

async function sendMessage(text: string) {
  const box = await screen.findByRole('textbox', { name: 'Message' });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter' });
  await waitFor(() => expect(stream).not.toBeNull());
}

describe('chat playground streaming', () => {
  it('renders markdown and highlighted code while it arrives, then the usage and cost', async () => {
    renderPage(<ChatPage />);
    await sendMessage('Write code');
    expect(sentBody).toMatchObject({
      model: 'svc-small',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Write code' }],
    });

    // A frame cut in the middle, and a code fence that is still open.
    const first = frame('Here is **bold** and code:\n\n```js\nconst x');
    await act(async () => stream!.send(first.slice(0, 25)));
    await act(async () => stream!.send(first.slice(25)));
    const answer = await screen.findByRole('article', { name: 'Assistant' });
    await waitFor(() => expect(answer.querySelector('strong')?.textContent).toBe('bold'));
    expect(answer.querySelector('pre code.hljs')?.textContent).toContain('const x');
    expect(answer.querySelector('pre code .hljs-keyword')?.textContent).toBe('const');

    await act(async () => {
      stream!.send(frame(' = 1;\n```'));
      stream!.send(
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } })}\n\n`,
      );
      stream!.send('data: [DONE]\n\n');
      stream!.close();
    });
    const statsList = await screen.findByLabelText('Answer statistics');
    expect(statsList.textContent).toContain('9 tok');
    expect(statsList.textContent).toContain('5 tok');
    expect(statsList.textContent).toContain('0.000420');
    expect(useConversationsStore.getState().conversations[0].messages[1]).toMatchObject({
      status: 'done',
      content: 'Here is **bold** and code:\n\n```js\nconst x = 1;\n```',
    });
  });

  it('sends the presence and frequency penalties set in the panel, and none when they are empty', async () => {
    renderPage(<ChatPage />);
    fireEvent.change(await screen.findByRole('spinbutton', { name: 'Presence penalty' }), { target: { value: '0.5' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Frequency penalty' }), { target: { value: '-1.25' } });
    await sendMessage('Vary your words');
    expect(sentBody).toMatchObject({ presence_penalty: 0.5, frequency_penalty: -1.25 });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Presence penalty' }), { target: { value: '' } });
    expect(useConversationsStore.getState().conversations[0].settings.presencePenalty).toBeNull();
  });

  it('Stop aborts the request and keeps the partial answer', async () => {
    renderPage(<ChatPage />);
    await sendMessage('Tell me a story');
    await act(async () => stream!.send(frame('Once upon')));
    await screen.findByText('Once upon');
    fireEvent.click(screen.getByRole('button', { name: /stop/i }));
    await waitFor(() => expect(useConversationsStore.getState().conversations[0].messages[1].status).toBe('stopped'));
    expect(useConversationsStore.getState().conversations[0].messages[1].content).toBe('Once upon');
    expect(screen.getByText('stopped')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    // A stopped answer still says when its first text came.
    expect(useConversationsStore.getState().conversations[0].messages[1].stats?.timeToFirstTokenMs).toBeTypeOf(
      'number',
    );
    expect(screen.getByLabelText('Answer statistics').textContent).toContain('First token');
  });

  it('keeps a failed reply in the thread when the next message is sent, and does not send it', async () => {
    renderPage(<ChatPage />);
    await sendMessage('First');
    await act(async () => {
      stream!.send(
        'data: {"object":"error","message":"The upstream provider failed: 502","type":"upstream_error","param":null,"code":"upstream_failed"}\n\n',
      );
      stream!.close();
    });
    await screen.findByRole('alert');
    stream = null;
    await sendMessage('Second');
    const roles = useConversationsStore.getState().conversations[0].messages.map((m) => `${m.role}:${m.status ?? ''}`);
    expect(roles).toEqual(['user:', 'assistant:error', 'user:', 'assistant:streaming']);
    expect((sentBody as { messages: { role: string }[] }).messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(screen.getAllByRole('article', { name: 'Assistant' })).toHaveLength(2);
  });

  it('quotes an attached .txt file into the message and refuses other files with a reason', async () => {
    renderPage(<ChatPage />);
    const input = await screen.findByLabelText('Attach an image or a text file');
    const notes = new File(['line one\nline two\n'], 'notes.txt', { type: 'text/plain' });
    const binary = new File([new Uint8Array([0, 1, 2])], 'tool.exe', { type: 'application/octet-stream' });
    fireEvent.change(input, { target: { files: [notes, binary] } });
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    await waitFor(() => expect(box.value).toContain('notes.txt:\n```\nline one\nline two\n```'));
    expect(screen.getByRole('alert').textContent).toContain('tool.exe is not an image or a text file');
  });

  it('asks before deleting a conversation', async () => {
    renderPage(<ChatPage />);
    await sendMessage('Keep me');
    await act(async () => {
      stream!.send('data: [DONE]\n\n');
      stream!.close();
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete "Keep me"?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(useConversationsStore.getState().conversations[0].messages).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete conversation' }));
    await waitFor(() =>
      expect(useConversationsStore.getState().conversations.every((c) => c.messages.length === 0)).toBe(true),
    );
  });

  it('shows the gateway message of an error frame under the answer', async () => {
    renderPage(<ChatPage />);
    await sendMessage('Hi');
    await act(async () => {
      stream!.send(frame('Par'));
      stream!.send(
        'data: {"object":"error","message":"The upstream provider failed: 502","type":"upstream_error","param":null,"code":"upstream_failed"}\n\n',
      );
      stream!.close();
    });
    expect((await screen.findByRole('alert')).textContent).toContain('The upstream provider failed: 502');
  });
});

describe('conversation rename', () => {
  it('a renamed conversation keeps its title when messages are sent', async () => {
    renderPage(<ChatPage />);
    await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename conversation' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Title' }), { target: { value: 'Invoices' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await sendMessage('What is the total?');
    expect(useConversationsStore.getState().conversations[0].title).toBe('Invoices');
    expect(screen.getByRole('combobox', { name: 'Conversation' }).textContent).toContain('Invoices');
  });

  it('an unnamed conversation is titled by its first message', async () => {
    renderPage(<ChatPage />);
    await sendMessage('What is the total?');
    expect(useConversationsStore.getState().conversations[0].title).toBe('What is the total?');
  });

  it('without any chat model: the message box is there, disabled, with one line saying why and what to do', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/models'
          ? new Response(JSON.stringify({ object: 'list', data: [] }), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            })
          : new Response('{}', { status: 404 }),
      ),
    );
    renderPage(<ChatPage />);
    const note = await screen.findByTestId('no-chat-model');
    expect(note.textContent).toMatch(/^No chat model yet: download one or use a \.gguf file on this computer/);
    expect(
      (screen.getByRole('textbox', { name: 'Chat input (no chat model yet)' }) as HTMLTextAreaElement).disabled,
    ).toBe(true);
  });
});
