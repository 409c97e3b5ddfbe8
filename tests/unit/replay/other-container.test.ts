import { describe, expect, it } from 'vitest';
import { replay } from '../../../tools/replay/replay.ts';
import { news } from '../../../containers/news/container.ts';

/** `offtag replay --container <file>`: the replay takes the container as input (docs/replay.md). */
describe('replay with another container', () => {
  it('runs the news container with its own services and settings', async () => {
    const result = await replay(
      {
        page: { url: 'https://news.example/world/a-123?cid=x9' },
        cookies: { news_consent: 'all' },
        dataLayer: { page: { section: 'World', id: 'a-123', type: 'article', tags: ['a', 'b'] } },
        events: [{ type: 'library-loaded' }, { type: 'dom-ready' }],
        responses: [{ match: '/id?', body: { d_mid: '12345678901234567890123456789012345678' } }],
      },
      { container: news },
    );
    const beacon = result.lines.map((l) => JSON.parse(l)).find((e) => e.type === 'request' && e.kind === 'beacon');
    expect(beacon.url).toContain('/b/ss/newsprod/1/');
    expect(beacon.url).toContain('pageName=news%3Aworld%3Aa-123');
    expect(beacon.url).toContain('cc=EUR');
    expect(beacon.url).toContain('l1=a%3Bb');
  });
});
