/**
 * The ActivityMap name of a clicked link, read from the link's HTML as Chromium serializes it, case
 * by case against what AppMeasurement 2.27.0's ActivityMap does with the same element in a page: its
 * walk reads `alt`, else `title`, else an IMG's `src`, of the first element that has one, and skips
 * only SCRIPT, STYLE, LINK and CANVAS elements (by their exact tag name) and comments.
 *
 * Equivalent mutants (Chromium's serialization never shows the difference): an end tag with space
 * before its `>` (`<\/\1\s*>` → `<\/\1>`); attribute names lower-cased (the HTML parser already
 * lower-cases them); the first of two same-named attributes kept (`??=` → `=`: the parser drops
 * the second); `linkAttributes` without HTML (no start tag gives `{}` either way); what the walk
 * skips replaced by other text instead of nothing (text holds no `<`: Chromium escapes it, so no
 * start tag is made or broken); a link without onclick tested for `.tl(` against other text than ''
 * (that text holds no `.tl(` either); an attribute read only with a value (`(?:="…")?` made
 * required): one without a value reads '' and '' counts as absent wherever an attribute is used
 * (alt, title, src, the object-id attributes, onclick), so only a duplicated attribute could
 * differ, and the parser drops duplicates.
 */
import { describe, expect, it } from 'vitest';
import type { LinkClick } from '../../../src/protocol.ts';
import { callsTracker, linkName } from '../../../src/worker-engine/analytics/link-name.ts';

const click = (html: string, text = ''): LinkClick => ({ href: 'https://partner.test/offer', text, html, region: 'BODY', tag: 'A', objectId: 'undefined', hasTlCall: false });

describe('the name a link without text gets from its elements', () => {
  it('decodes the entities of an attribute value, then collapses its white space', () => {
    expect(linkName(click('<a href="/x"><img alt="a&nbsp;&nbsp;b &lt;c&gt; d&#39;e"></a>'))).toBe("a b <c> d'e");
  });
  it('skips each comment alone, spaces and all, and reads the element between two', () => {
    expect(linkName(click('<a href="/x"><!-- one <i title="no"></i> --><i title="Yes"></i><!-- two --></a>'))).toBe('Yes');
  });
  it('skips script, style, link and canvas elements, but not custom elements whose names begin so', () => {
    expect(linkName(click('<a href="/x"><canvas-card title="Card"></canvas-card><canvas title="no"></canvas></a>'))).toBe('Card');
    expect(linkName(click('<a href="/x"><link-icon title="Home"></link-icon></a>'))).toBe('Home');
    expect(linkName(click('<a href="/x"><script-box title="Box"></script-box></a>'))).toBe('Box');
    expect(linkName(click('<a href="/x"><link rel="icon" title="no"><span title="Span"></span></a>'))).toBe('Span');
  });
  it('an attribute written without a value is empty (HTML not serialized by Chromium): the title follows', () => {
    expect(linkName(click('<a href="/x"><img alt title="T"></a>'))).toBe('T');
  });
  it('a canvas is skipped to its own end tag, past a custom element inside it whose name begins so', () => {
    expect(linkName(click('<a href="/x"><canvas><canvas-card></canvas-card><b title="inner"></b></canvas><i title="after"></i></a>'))).toBe('after');
  });
  it('hand-written spacing (two spaces between attributes, a space before >) still reads the attributes', () => {
    expect(linkName(click('<a href="/x"><img  alt="A"></a>'))).toBe('A');
    expect(linkName(click('<a href="/x"><img alt="B" ></a>'))).toBe('B');
  });
  it('alt before title on one element; src only of an image', () => {
    expect(linkName(click('<a href="/x"><img title="T" alt="A"></a>'))).toBe('A');
    expect(linkName(click('<a href="/x"><video src="/clip.mp4"></video></a>'))).toBe('');
    expect(linkName(click('<a href="/x"><video src="/clip.mp4"></video><img src="/pic.png"></a>'))).toBe('/pic.png');
  });
});

describe('the name a link gets from its text or object id', () => {
  it('its text trimmed, each run of white space one space', () => {
    expect(linkName(click('<a href="/x">x</a>', '  Spring \n\t sale  '))).toBe('Spring sale');
  });
  it('an onclick that names s_objectID without a quoted value names nothing: the text follows', () => {
    expect(linkName(click('<a href="/x" onclick="s_objectID=window.id">Sale</a>', 'Sale'))).toBe('Sale');
  });
});

describe('s_objectID as the onclick sets it', () => {
  const named = (onclick: string, text = 'Sale') => linkName(click(`<a href="/x" onclick="${onclick}">${text}</a>`, text));
  it('is read after the name, not from a quote earlier in the source', () => {
    expect(named("window.track('x'); s_objectID='promo'")).toBe('promo');
  });
  it('an empty quoted value names nothing: the text follows', () => {
    expect(named("s_objectID='';go()")).toBe('Sale');
  });
  it('a value whose quote is never closed runs to the end of the source', () => {
    expect(named("s_objectID='promo")).toBe('promo');
  });
});

describe('a name over 254 characters', () => {
  it('keeps its first 254, after its white space is collapsed', () => {
    expect(linkName(click('<a href="/x">x</a>', `  ${'a  '.repeat(100)}${'b'.repeat(100)}`))).toBe(`${'a '.repeat(100)}${'b'.repeat(54)}`);
  });
});

describe('HTML without a start tag (a click recorded from text alone)', () => {
  it('names the link by its text and finds no tracker call', () => {
    const plain: LinkClick = { ...click('Spring sale', 'Spring sale') };
    expect(linkName(plain)).toBe('Spring sale');
    expect(callsTracker(plain)).toBe(false);
  });
});

describe('a link whose onclick calls the tracker', () => {
  it('is one calling .tl( or .trackLink( exactly, not another function whose name ends so', () => {
    const calls = (onclick: string) => callsTracker(click(`<a href="/x" onclick="${onclick}">x</a>`));
    expect([calls('s.tl(this)'), calls('bottl(1)'), calls('s.trackLinks()'), calls('s.tl')]).toEqual([true, false, false, false]);
  });
});
