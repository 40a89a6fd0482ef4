// What a hostile or tracking email may not make the viewer do: run script, or fetch anything.
import { describe, expect, it } from 'vitest';
import { sanitiseEmailHtml } from '../src/features/email-details/sanitise.ts';

const parse = (html: string) => {
  const template = document.createElement('template');
  template.innerHTML = sanitiseEmailHtml(html);
  return template.content;
};

/** Every attribute value left in the output that names something to fetch from elsewhere. */
const remoteReferences = (html: string) => {
  const out = sanitiseEmailHtml(html);
  return [...out.matchAll(/(?:https?:|\/\/|\\\\|file:|url\s*\()/gi)].map((m) => m[0]);
};

describe('sanitiseEmailHtml', () => {
  it('removes scripts, handlers and javascript: links', () => {
    const out = sanitiseEmailHtml('<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)>');
    expect(out).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(out).toContain('Hi');
  });

  it.each([
    ['a remote image', '<img src="https://track.example/p.png">'],
    ['a protocol-relative image', '<img src="//track.example/p.png">'],
    ['a UNC image', '<img src="\\\\host\\share\\x.png">'],
    ['a file: image', '<img src="file:///etc/passwd">'],
    ['a srcset', '<img srcset="https://track.example/a.png 1x">'],
    ['a table background', '<table background="https://track.example/bg.png"><tr><td>x</td></tr></table>'],
    ['a CSS url() in a style attribute', '<div style="color: red; background-image: url(https://track.example/bg.png)">x</div>'],
    ['an escaped CSS url()', '<div style="background: u\\72l(https://track.example/bg.png)">x</div>'],
    ['a CSS image-set()', '<div style="background-image: image-set(\'https://track.example/a.png\' 1x)">x</div>'],
    ['an SVG image href', '<svg><image href="https://track.example/s.png" width="1" height="1"></image></svg>'],
    ['an SVG image xlink:href', '<svg><image xlink:href="https://track.example/s.png"></image></svg>'],
    ['an SVG use', '<svg><use href="https://track.example/sprite.svg#a"></use></svg>'],
    ['a video poster', '<video poster="https://track.example/p.png"></video>'],
    ['a link stylesheet', '<link rel="stylesheet" href="https://track.example/s.css">'],
    ['a style element', '<style>body { background: url(https://track.example/b.png) }</style>'],
  ])('leaves nothing to fetch from %s', (_name, html) => {
    expect(remoteReferences(html)).toEqual([]);
  });

  it('keeps inline images, the rest of a style, and links (which only a click follows)', () => {
    const content = parse(
      '<img src="data:image/png;base64,iVBORw0KGgo="><div style="color: red; background: url(https://t.example/x)">x</div><a href="https://bank.example/case/1">case</a>',
    );
    expect(content.querySelector('img')!.getAttribute('src')).toMatch(/^data:image\/png/);
    expect(content.querySelector('div')!.getAttribute('style')).toMatch(/color: red/);
    expect(content.querySelector('div')!.getAttribute('data-blocked-remote')).toBe('true');
    const link = content.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://bank.example/case/1');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
