/**
 * The ID-sync iframe as the service drives it (VisitorAPI.js 5.5.0: the ID-sync iframe): a reply with only on-page syncs opens no
 * iframe and fails nothing; what the devtools feed and the debug log say about the iframe's answers.
 */
import { describe, expect, it } from 'vitest';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { idReply, makeContext } from './helpers.ts';

const VERDICT = '---destpub-to-parent---canSetThirdPartyCookies|';

describe('ID-sync iframe through the service', () => {
  it('a reply whose syncs are all on-page fires them, opens no iframe and logs nothing', async () => {
    const onPage = { id: '477', tag: 'img', url: ['https://op.example/p'], ttl: 1440, fireURLSync: 1, syncOnPage: 1 };
    const ctx = makeContext({ fetch: () => idReply({ ibs: [onPage] }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    await svc.getVisitorValues();
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([{ type: 'image', src: 'https://op.example/p' }]);
    expect(ctx.effects.some((e) => e.type === 'iframe' || e.type === 'post-message')).toBe(false);
    expect(ctx.logs).toEqual([]);
  });

  it("the iframe's verdict goes to the devtools feed; a message from another origin is said in the debug log", async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { id: string; targetOrigin: string };
    svc.onFrameMessage(frame.id, 'https://evil.example', `${VERDICT}false`);
    expect(ctx.logs).toEqual([{ level: 'debug', message: 'ID sync: ignored a message from https://evil.example.' }]);
    svc.onFrameMessage(frame.id, frame.targetOrigin, `${VERDICT}true`);
    svc.onFrameMessage(frame.id, frame.targetOrigin, `${VERDICT}false`);
    expect(ctx.monitors.filter((m) => m.name === 'visitor-id-sync')).toEqual([
      { name: 'visitor-id-sync', data: { canSetThirdPartyCookies: true } },
      { name: 'visitor-id-sync', data: { canSetThirdPartyCookies: false } },
    ]);
  });
});
