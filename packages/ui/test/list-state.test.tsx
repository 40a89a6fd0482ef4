import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { FilterInput, typingPauseMs, useListState } from '../src/index.ts';

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

function Typing() {
  const state = useListState(names);
  const location = useLocation();
  return (
    <>
      <output aria-label="url">{location.search}</output>
      <FilterInput
        label="ATM"
        value={state.filters.atm}
        onType={(v) => state.typeFilter('atm', v)}
        onCommit={(v) => state.setFilters({ atm: v })}
        resets={state.resets}
      />
      <button onClick={() => state.setPageSize(20)}>20 per page</button>
      <button onClick={() => state.setPage(state.page + 1)}>Next</button>
      <button onClick={state.reset}>Reset</button>
      <button onClick={() => state.setFilters({ card: '4321' })}>pick card</button>
    </>
  );
}

const pause = () => new Promise((resolve) => setTimeout(resolve, typingPauseMs + 150));

describe('a filter in its typing pause', () => {
  it('is applied after the pause, once, on page 1', async () => {
    render(
      <MemoryRouter initialEntries={['/?page=3']}>
        <Typing />
      </MemoryRouter>,
    );
    await userEvent.type(screen.getByLabelText('ATM'), 'AT12');
    expect(screen.getByLabelText('url').textContent).toBe('?page=3');
    await pause();
    expect(screen.getByLabelText('url').textContent).toBe('?atm=AT12');
  });

  it('goes with a page size and a page chosen during the pause, and the pause ending later undoes neither', async () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Typing />
      </MemoryRouter>,
    );
    await userEvent.type(screen.getByLabelText('ATM'), 'AT12');
    await userEvent.click(screen.getByRole('button', { name: '20 per page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByLabelText('url').textContent).toBe('?atm=AT12&page_size=20&page=2');
    await pause();
    expect(screen.getByLabelText('url').textContent).toBe('?atm=AT12&page_size=20&page=2');
    expect((screen.getByLabelText('ATM') as HTMLInputElement).value).toBe('AT12');
  });

  it('keeps a filter applied during the pause when the pause ends', async () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Typing />
      </MemoryRouter>,
    );
    await userEvent.type(screen.getByLabelText('ATM'), 'AT12');
    await userEvent.click(screen.getByRole('button', { name: 'pick card' }));
    await pause();
    expect(screen.getByLabelText('url').textContent).toBe('?card=4321&atm=AT12');
  });

  it('is dropped by Reset', async () => {
    render(
      <MemoryRouter initialEntries={['/?card=1']}>
        <Typing />
      </MemoryRouter>,
    );
    await userEvent.type(screen.getByLabelText('ATM'), 'AT');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await pause();
    expect(screen.getByLabelText('url').textContent).toBe('');
    expect((screen.getByLabelText('ATM') as HTMLInputElement).value).toBe('');
  });
});
