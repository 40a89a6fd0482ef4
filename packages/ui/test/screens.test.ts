// A remote's table of screens gives its descriptor's paths and side nav and its standalone links.
import { describe, expect, it } from 'vitest';
import { describeScreens, screenLinks } from '../src/screens.ts';

const screens = {
  list: { path: '/all-email', label: 'All Email', nav: 40 },
  one: { path: '/all-email/:id', label: 'One Email' },
  details: { path: '/email-details-data/:id', label: 'Email Details' },
  data: { path: '/data-email', label: 'Email Data' },
};

describe('a table of screens', () => {
  it('owns each first path segment once, and lists in the side nav only the screens with a place there', () => {
    expect(describeScreens(screens)).toEqual({
      paths: ['all-email', 'email-details-data', 'data-email'],
      nav: [{ label: 'All Email', path: '/all-email', order: 40 }],
    });
  });

  it('links, on its own, every screen that needs no parameter', () => {
    expect(screenLinks(screens)).toEqual([
      { label: 'All Email', to: '/all-email' },
      { label: 'Email Data', to: '/data-email' },
    ]);
  });
});
