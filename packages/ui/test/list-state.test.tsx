import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { useListState } from '../src/index.ts';

afterEach(cleanup);

const names = ['atm', 'card'] as const;

function Probe() {
  const state = useListState(names);
  const location = useLocation();
  return (
    <>
      <output aria-label="url">{location.search}</output>
      {/* Two filters committed before the list re-renders: two search boxes' pauses ending together. */}
      <button
        onClick={() => {
          state.setFilters({ atm: '' });
          state.setFilters({ card: '4321' });
        }}
      >
        both
      </button>
      <button onClick={() => state.setPage(3)}>page 3</button>
    </>
  );
}

describe('useListState', () => {
  it('keeps every filter committed before the list re-renders', async () => {
    render(
      <MemoryRouter initialEntries={['/?atm=AT12&page=2']}>
        <Probe />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'both' }));
    expect(screen.getByLabelText('url').textContent).toBe('?card=4321');
    await userEvent.click(screen.getByRole('button', { name: 'page 3' }));
    expect(screen.getByLabelText('url').textContent).toBe('?card=4321&page=3');
  });
});
