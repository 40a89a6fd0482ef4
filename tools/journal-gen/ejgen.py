#!/usr/bin/python3
"""ejgen: ATM electronic journals (NCR, Diebold Nixdorf, Hyosung) with the ground truth decided
before a line is printed, for testing EJ Desk's journal parser with files its authors did not write.

The line shapes rest on public samples and descriptions listed in README.md beside this file.
Python 3.11 standard library only; deterministic for a seed.

  python3 tools/journal-gen/ejgen.py --out DIR --seed N [--family ncr|diebold|hyosung|all]
      [--atms K] [--days D] [--crlf] [--encoding utf-8|cp1252] [--split] [--zip]
      [--no-atm-in-name] [--mail] [--size-mb M] [--txns N] [--start YYYY-MM-DD] [--bad DIR]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import io
import json
import os
import random
import struct
import sys
import zipfile
import zlib
from email.message import EmailMessage
from email.utils import format_datetime

FAMILIES = ('ncr', 'diebold', 'hyosung')
VERDICTS = ('dispensed', 'partial', 'not_dispensed', 'retracted', 'reversed', 'indeterminate')
# Scenarios every family's first journal holds, so any seed shows each verdict in each family.
FORCED = ('dispensed', 'partial', 'not_dispensed', 'retracted', 'reversed', 'declined', 'power_cut', 'near_twin')
AMOUNTS = (100, 200, 300, 500, 500, 1000, 1000, 1500, 2000, 2000, 2000, 2500, 3000, 4000, 5000, 5000, 6000, 8000, 10000)
BINS = ('459150', '508500', '652150', '607153', '421323', '524180', '489377', '606985')
DECLINES = (('51', 'INSUFFICIENT FUNDS'), ('55', 'INCORRECT PIN'), ('61', 'EXCEEDS WITHDRAWAL LIMIT'), ('91', 'ISSUER NOT AVAILABLE'))
BANKS_ASCII = ('APEX BANK LTD', 'KAVERI GRAMIN BANK', 'SAHYADRI CO-OP BANK', 'NARMADA URBAN BANK')
# Windows-1252 text: é and the right single quote exist there (the rupee sign does not: 'Rs.').
BANKS_1252 = ('CRÉDIT DU DECCAN', 'BANQUE DE PONDICHÉRY', 'SOCIÉTÉ COOPÉRATIVE BANK')
PLACES = ('MG ROAD', 'STATION ROAD', 'CIVIL LINES', 'MARKET YARD', 'CAFÉ CORNER, LINK ROAD', 'BUS STAND')


# Time of day as printed, looked up rather than formatted: journals print it on most lines.
HMS = [f'{h:02d}:{m:02d}:{x:02d}' for h in range(24) for m in range(60) for x in range(60)]


def hms(t: dt.datetime) -> str:
    return HMS[t.hour * 3600 + t.minute * 60 + t.second]


def money(amount: float) -> str:
    return f'{amount:.2f}'


class Out:
    """The lines of one journal in memory, numbered from 1 as in the file."""

    __slots__ = ('lines',)

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, text: str) -> int:
        self.lines.append(text)
        return len(self.lines)

    @property
    def n(self) -> int:
        return len(self.lines)


class StreamOut:
    """The lines of a big journal, written as they come: memory stays flat however large the file."""

    def __init__(self, path: str, eol: str, encoding: str) -> None:
        self.f = open(path, 'wb')
        self.eol, self.encoding = eol, encoding
        self.buf: list[str] = []
        self.count = 0
        self.size = 0
        self.sha = hashlib.sha256()

    def add(self, text: str) -> int:
        self.buf.append(text)
        self.count += 1
        if len(self.buf) >= 4096:
            self.flush()
        return self.count

    @property
    def n(self) -> int:
        return self.count

    def flush(self) -> None:
        if not self.buf:
            return
        data = (self.eol.join(self.buf) + self.eol).encode(self.encoding)
        self.f.write(data)
        self.sha.update(data)
        self.size += len(data)
        self.buf = []

    def close(self) -> None:
        self.flush()
        self.f.close()


class Clock:
    """A transaction's time: each printed event moves it on a few seconds."""

    __slots__ = ('t', 'r')

    def __init__(self, t: dt.datetime, r: random.Random) -> None:
        self.t, self.r = t, r

    def step(self, lo: int = 1, hi: int = 4) -> dt.datetime:
        self.t += dt.timedelta(seconds=lo + int((hi - lo + 1) * self.r.random()))
        return self.t


class Atm:
    """One terminal: its identity, cassettes and counters, and the habits of its journal."""

    def __init__(self, family: str, index: int, seed: int, encoding: str) -> None:
        r = random.Random(f'{seed}:atm:{family}:{index}')
        self.family, self.index, self.r = family, index, r
        if r.random() < 0.5:
            self.id = f'S1{r.choice("ABCDEFGHJKLMNPRSTUVW")}{r.choice("ABCDEFGHJKLMNPRSTUVW")}{r.randint(0, 999999):06d}'
        else:
            self.id = ''.join(r.choice('ABCDEFGHJKLMNPRSTUVWXYZ') for _ in range(4)) + f'{r.randint(0, 999999):06d}'
        self.denoms = list(r.choice(((100, 200, 500, 500), (100, 500, 500, 200), (500, 500, 200, 100), (200, 500, 100), (100, 500, 500))))
        self.loaded = [0] * len(self.denoms)
        self.dispensed = [0] * len(self.denoms)
        self.rejected = [0] * len(self.denoms)
        self.retracts = r.randint(0, 9)
        self.serial = r.randint(1, 9000)
        self.stan = r.randint(1, 900000)
        self.seq = r.randint(1, 900)
        self.dev_seq = r.randint(1000, 8000)
        accented = encoding == 'cp1252' or r.random() < 0.34
        self.bank = r.choice(BANKS_1252 if accented else BANKS_ASCII)
        self.place = f'{r.choice(PLACES)}, {r.choice(("PUNE", "NASHIK", "MYSURU", "INDORE", "MADURAI", "SURAT"))}'
        if accented and 'É' not in self.place:
            self.place = 'CAFÉ CORNER – ' + self.place
        self.receipt_rate = r.choice((0.0, 0.5, 0.8, 0.95))
        self.style = family_style(family, r)
        self.replenish()

    def replenish(self) -> None:
        self.loaded = [self.r.choice((1500, 2000, 2500)) for _ in self.denoms]
        self.dispensed = [0] * len(self.denoms)
        self.rejected = [0] * len(self.denoms)

    def remaining(self) -> list[int]:
        return [a - b - c for a, b, c in zip(self.loaded, self.dispensed, self.rejected)]

    def next_serial(self) -> int:
        self.serial = self.serial % 9999 + 1
        return self.serial

    def next_stan(self) -> int:
        self.stan = self.stan % 999999 + 1
        return self.stan

    def mix(self, amount: int, r: random.Random) -> list[int] | None:
        """Notes per cassette for an amount: largest notes first, as dispensers mix by default."""
        order = sorted(range(len(self.denoms)), key=lambda i: (-self.denoms[i], r.random()))
        counts = [0] * len(self.denoms)
        left = amount
        rem = self.remaining()
        for i in order:
            k = min(left // self.denoms[i], max(rem[i], 0))
            counts[i] = k
            left -= k * self.denoms[i]
        return counts if left == 0 and sum(counts) <= 40 else None


def family_style(family: str, r: random.Random) -> dict:
    if family == 'ncr':
        return {
            'prefix': '[020t' if r.random() < 0.8 else '',
            'secs': r.random() < 0.6,
            'cash_total': r.choice(('per_txn', 'eod', 'both')),
            'chip': r.random() < 0.7,
            'reader_line': r.random() < 0.6,
        }
    if family == 'diebold':
        return {'dated': r.random() < 0.5, 'datefmt': r.choice(('%d/%m/%Y', '%d.%m.%Y'))}
    return {'dated': r.random() < 0.5, 'sep': r.choice(('=====', '-----', '*****'))}


def pan_masked(card: str, style: int) -> str:
    if style == 0:
        return 'X' * 12 + card[-4:]
    if style == 1:
        return card[:6] + '*' * 6 + card[-4:]
    return card[:6] + 'XXXXXX' + card[-4:]


# --------------------------------------------------------------------------------------------
# Families: each maps the events of a transaction to its own lines. The first line an event
# returns is printed first; every line of an event named as evidence is listed as evidence.
# --------------------------------------------------------------------------------------------


class Family:
    name = ''

    def __init__(self, atm: Atm, r: random.Random) -> None:
        self.atm, self.r, self.s = atm, r, atm.style

    # Time stamps and blocks each family overrides.
    def start(self, c: Clock, plan: dict) -> list[str]:
        raise NotImplementedError

    def event(self, name: str, c: Clock, plan: dict, **kw) -> list[str]:
        raise NotImplementedError

    def day_open(self, t: dt.datetime, restart: bool) -> list[str]:
        raise NotImplementedError

    def restart(self, t: dt.datetime) -> list[str]:
        raise NotImplementedError

    def totals(self, t: dt.datetime) -> list[str]:
        raise NotImplementedError

    def noise(self, t: dt.datetime) -> list[str]:
        raise NotImplementedError

    def receipt(self, c: Clock, plan: dict, status: str) -> list[str]:
        a, r = self.atm, self.r
        t = c.step(0, 2)
        w = r.choice((0, 1, 2))
        pad = ' ' * w
        head = [f'{pad}   {a.bank}', f'{pad}  {a.place}'] if r.random() < 0.8 else [f'   {a.bank}']
        lines = head + [
            f'{pad}DATE        TIME      ATM ID',
            f'{pad}{t:%d/%m/%y}    {hms(t)}  {a.id}',
            f'{pad}CARD NUMBER : {pan_masked(plan["card"], r.choice((0, 0, 1)))}',
            f'{pad}TXN NO      : {plan["serial"]:04d}',
        ]
        shown = ['card_last4', 'serial']
        if plan.get('stan'):
            lines += [f'{pad}RRN         : {plan["rrn"]}', f'{pad}STAN        : {plan["stan"]:06d}']
            shown += ['rrn', 'stan']
        lines.append(f'{pad}RESPONSE CODE : {plan.get("code", "00")}')
        amount = plan.get('amount', 0)
        sep = r.choice((' ', '', '  '))
        text = f'{amount:,.2f}' if r.random() < 0.3 else money(amount)
        if plan['kind'] in ('withdrawal', 'declined'):
            lines.append(f'{pad}WITHDRAWAL    RS.{sep}{text}')
        if status:
            lines.append(f'{pad}{status}')
        if r.random() < 0.6 and plan['kind'] != 'declined':
            lines.append(f'{pad}AVAIL BAL     RS.{sep}{money(r.randint(100, 900000) + r.randint(0, 99) / 100)}')
        lines.append(f'{pad}  CUSTOMER’S COPY - THANK YOU' if 'É' in a.bank else f'{pad}  THANK YOU FOR BANKING WITH US')
        plan['shown'].update(shown)
        return lines


class Ncr(Family):
    """NCR APTRA Advance NDC, as Indian switches configure its journal."""

    name = 'ncr'

    def hdr(self, t: dt.datetime) -> str:
        self.atm.seq = self.atm.seq % 9999 + 1
        time = hms(t) if self.s['secs'] else hms(t)[:5]
        return f'{self.s["prefix"]}*{self.atm.seq}*{t:%d/%m/%Y}*{time}*'

    def ev(self, t: dt.datetime, text: str) -> str:
        return f'{self.s["prefix"]} {hms(t)} {text}'

    def dev(self, device: str, status: int, m: str, rr: str) -> str:
        self.atm.dev_seq = self.atm.dev_seq % 9999 + 1
        return f'*{self.atm.dev_seq}*1*{device}*{status}, M-{m}, R-{rr}'

    def counts(self, counts: list[int]) -> str:
        return ','.join(str(x) for x in counts)

    def start(self, c: Clock, plan: dict) -> list[str]:
        lines = [self.hdr(c.t), ' ' * self.r.randint(5, 6) + '*TRANSACTION START*', f'{self.s["prefix"]} CARD INSERTED'.lstrip()]
        if self.s['chip']:
            lines.append(f' {hms(c.step())} ATR RECEIVED T=0')
        return lines

    def event(self, name: str, c: Clock, plan: dict, **kw) -> list[str]:
        r, a = self.r, self.atm
        if name == 'pin':
            return [self.ev(c.step(3, 9), 'PIN ENTERED')]
        if name == 'select':
            code = plan.get('opcode') or r.choice(('AB   C', 'BBD', 'ABB', 'AB', 'BBC', 'ABD'))
            return [self.ev(c.step(2, 6), f'OPCODE = {code}'), '', f'  PAN 000{plan["card"][:4]}********{plan["card"][-4:]}', '  ---START OF TRANSACTION---', ' ']
        if name == 'amount':
            return [self.ev(c.step(2, 8), f'AMOUNT {plan["amount"]} ENTERED')]
        if name == 'request':
            return [self.ev(c.step(0, 1), f'REQUEST SENT [AMOUNT={plan["amount"] * 100:08d}]')]
        if name == 'approved':
            plan['shown'].add('serial')
            lines = [self.ev(c.step(1, 3), f'RESPONSE RECEIVED [FUNCTION ID=9,  TXN SN NO={plan["serial"]}]')]
            if self.s['chip'] and r.random() < 0.5:
                lines += [self.ev(c.t, 'GENAC 1 : ARQC'), self.ev(c.step(1, 2), 'GENAC 2 : TC')]
            return lines
        if name == 'declined':
            plan['shown'].add('serial')
            return [
                self.ev(c.step(1, 3), f'RESPONSE RECEIVED [FUNCTION ID=5,  TXN SN NO={plan["serial"]}]'),
                self.ev(c.t, f'TRANSACTION DECLINED  RC:{plan["code"]} {plan["reason"]}'),
            ]
        if name == 'stacked':
            return [self.ev(c.step(2, 4), 'NOTES STACKED')]
        if name == 'card_taken':
            return [self.ev(c.step(1, 4), 'CARD TAKEN')]
        if name == 'dispense_error':
            return [self.dev('E', 4, r.choice(('03', '02', '08')), r.choice(('0011', '10011', '00310'))), '   UNABLE TO DISPENSE']
        if name == 'short_error':
            return [self.dev('E', 1, '02', r.choice(('10011', '00211')))]
        if name == 'reversal':
            return [self.ev(c.step(1, 2), f'REVERSAL SENT [AMOUNT={plan["amount"] * 100:08d}]'), self.ev(c.step(1, 2), 'REVERSAL RESPONSE RECEIVED [RESP CODE=00]')]
        if name == 'presented':
            return [self.ev(c.step(2, 5), f'NOTES PRESENTED {self.counts(kw["counts"])}')]
        if name == 'taken':
            return [self.ev(c.step(1, 6), 'NOTES TAKEN')]
        if name == 'timeout':
            return [self.ev(c.step(25, 35), 'CUSTOMER TIMEOUT')]
        if name == 'retracted':
            lines = [self.dev('E', 5, '00', '00000')]
            if r.random() < 0.5:
                return lines + [self.ev(c.step(2, 4), 'RETRACT OPERATION'), f'COUNT {self.counts(kw["counts"])}', self.ev(c.t, 'NOTES RETRACTED')]
            return lines + [self.ev(c.step(2, 4), 'NOTES RETRACTED')]
        if name == 'after_taken':
            return self.cash_total() if self.s['cash_total'] in ('per_txn', 'both') else []
        if name == 'end':
            lines = [self.ev(c.step(2, 6), 'TRANSACTION END')]
            if self.s['reader_line']:
                lines += [self.hdr(c.t), ' ' * 5 + '*PRIMARY CARD READER ACTIVATED*']
            return lines
        return []

    def cash_total(self) -> list[str]:
        a = self.atm
        n = len(a.denoms)
        cols = ''.join(f' TYPE{i + 1}' for i in range(n))

        def row(label: str, values: list[int], width: int = 5) -> str:
            return f'{label:<17}' + ' '.join(f'{v:0{width}d}' if label != 'DENOMINATION' else f'{v:>5d}' for v in values)

        return [
            f'CASH TOTAL      {cols}',
            row('DENOMINATION', a.denoms),
            row('DISPENSED', a.dispensed),
            row('REJECTED', a.rejected),
            row('REMAINING', a.remaining()),
        ]

    def day_open(self, t: dt.datetime, restart: bool) -> list[str]:
        lines = [self.hdr(t)]
        if restart:
            lines += [' ' * 5 + '*POWER-UP/RESET*', f' APTRA ADVANCE NDC {self.r.choice(("04.04.00", "03.02.01"))}', f'   {self.atm.bank}  {self.atm.id}']
            lines += self.cash_total()
        else:
            lines += [' ' * 5 + '*PRIMARY CARD READER ACTIVATED*', f'   {self.atm.bank}  {self.atm.id}']
        return lines

    def restart(self, t: dt.datetime) -> list[str]:
        lines = [self.hdr(t), ' ' * 5 + self.r.choice(('*POWER-UP/RESET*', '*POWER-UP/RESET*', '*APPLICATION RESTART*')), f' APTRA ADVANCE NDC 04.04.00']
        if self.r.random() < 0.6:
            lines += ['BILLS AT POWERUP', f'   {self.atm.bank}']
        return lines + self.cash_total()

    def totals(self, t: dt.datetime) -> list[str]:
        return [self.hdr(t), ' ' * 5 + '*SUPERVISOR MODE ENTRY*'] + self.cash_total() + [self.hdr(t + dt.timedelta(minutes=2)), ' ' * 5 + '*SUPERVISOR MODE EXIT*']

    def noise(self, t: dt.datetime) -> list[str]:
        r = self.r
        return r.choice(
            (
                [''],
                [' '],
                ['[0r(1)2[000p[040qe1w3h162'],
                [self.hdr(t), ' ' * 5 + '*PRIMARY CARD READER ACTIVATED*'],
                [self.dev('P', 2, '00', '00000'), ' JOURNAL PRINTER PAPER LOW'],
                [self.ev(t, 'COMMS LINK UP')],
                ['\x1b(1' + ' ' * r.randint(1, 8)],
                [f'*{r.randint(1000, 9999)}*1*D*9,M-81,R-0', 'CARD INITIALISE ATTEMPT = 1'],
            )
        )


class Diebold(Family):
    """Diebold Nixdorf ProCash / Vynamic customer journal."""

    name = 'diebold'
    day: dt.date | None = None
    date = ''

    def ts(self, t: dt.datetime) -> str:
        if not self.s['dated']:
            return hms(t)
        if self.day != t.date():
            self.day, self.date = t.date(), t.strftime(self.s['datefmt'])
        return f'{self.date} {hms(t)}'

    def ln(self, t: dt.datetime, text: str) -> str:
        return f'{self.ts(t)} {text}'

    def cas(self, counts: list[int]) -> str:
        return ' '.join(f'CAS{i + 1}:{c:03d}' for i, c in enumerate(counts))

    def start(self, c: Clock, plan: dict) -> list[str]:
        tail = '' if self.s['dated'] else f'  {c.t.strftime(self.s["datefmt"])}'
        return [self.ln(c.t, f'-> TRANSACTION START{tail}'), self.ln(c.step(), 'CARD INSERTED'), self.ln(c.step(0, 1), f'TRACK 2 DATA: {plan["card"][:6]}******{plan["card"][-4:]}')]

    def event(self, name: str, c: Clock, plan: dict, **kw) -> list[str]:
        r = self.r
        if name == 'pin':
            return [self.ln(c.step(3, 9), 'PIN ENTERED')]
        if name == 'select':
            return [self.ln(c.step(2, 6), f'TRANSACTION REQUEST: {plan.get("label", "CASH WITHDRAWAL")}')]
        if name == 'amount':
            return [self.ln(c.step(1, 5), f'AMOUNT: INR {money(plan["amount"])}')]
        if name == 'request':
            return [self.ln(c.step(0, 1), 'AUTHORIZATION REQUEST SENT')] if r.random() < 0.5 else []
        if name == 'approved':
            plan['shown'].update(('stan', 'rrn'))
            return [self.ln(c.step(1, 3), f'AUTHORIZATION STAN:{plan["stan"]:06d} RRN:{plan["rrn"]} RESP:00 APPROVED')]
        if name == 'declined':
            plan['shown'].update(('stan', 'rrn'))
            return [self.ln(c.step(1, 3), f'AUTHORIZATION STAN:{plan["stan"]:06d} RRN:{plan["rrn"]} RESP:{plan["code"]} DECLINED ({plan["reason"]})')]
        if name == 'stacked':
            return [self.ln(c.step(1, 2), 'CASH REQUEST: ' + ''.join(f'{x:02d}' for x in plan['mix']))]
        if name == 'card_taken':
            return [self.ln(c.step(1, 4), 'CARD TAKEN')]
        if name == 'dispense_error':
            code = r.choice(('0x2202', '0x8A01', '0x2310'))
            return [self.ln(c.step(2, 5), f'DEVICE ERROR CASH_DISPENSER ERRORNR: {code} CLASS: FATAL'), self.ln(c.t, 'DISPENSE FAILED - NO NOTES PRESENTED')]
        if name == 'short_error':
            return [self.ln(c.step(2, 5), f'DEVICE ERROR CASH_DISPENSER ERRORNR: 0x2301 CLASS: WARNING (CASSETTE {kw["cassette"]} FAILED)')]
        if name == 'reversal':
            return [self.ln(c.step(1, 3), f'REVERSAL SENT STAN:{self.atm.next_stan():06d} ORIG STAN:{plan["stan"]:06d} AMOUNT: INR {money(plan["amount"])}'), self.ln(c.step(1, 2), 'REVERSAL ACCEPTED RESP:00')]
        if name == 'presented':
            return [self.ln(c.step(2, 5), f'CASH PRESENTED {self.cas(kw["counts"])}')]
        if name == 'taken':
            return [self.ln(c.step(1, 6), 'CASH TAKEN')]
        if name == 'timeout':
            return [self.ln(c.step(25, 35), 'PRESENT TIMEOUT')]
        if name == 'retracted':
            old = self.atm.retracts
            self.atm.retracts += 1
            return [self.ln(c.step(2, 4), f'CASH RETRACTED {self.cas(kw["counts"])}'), self.ln(c.t, f'RETRACT COUNTER OLD={old} NEW={old + 1}')]
        if name == 'end':
            return [self.ln(c.step(2, 6), '<- TRANSACTION END')]
        return []

    def table(self, t: dt.datetime, title: str) -> list[str]:
        a = self.atm
        lines = [self.ln(t, title), 'CAS  DENOM    CUR  LOADED  DISP  REJ   REMAIN']
        for i, d in enumerate(a.denoms):
            lines.append(f' {i + 1}   {money(d):>7}  INR  {a.loaded[i]:>6}  {a.dispensed[i]:>4}  {a.rejected[i]:>3}  {a.remaining()[i]:>6}')
        return lines

    def day_open(self, t: dt.datetime, restart: bool) -> list[str]:
        lines = [f'*** {t.strftime(self.s["datefmt"])} ***'] if not self.s['dated'] else []
        if restart:
            lines += [self.ln(t, '*** SYSTEM STARTUP ***'), self.ln(t, f'PROCASH/NDC {self.r.choice(("V3.01.02", "V2.10.00"))}  {self.atm.bank}')]
            lines += self.table(t, 'CASSETTE TABLE')
        else:
            lines += [self.ln(t, f'JOURNAL OPENED  TERMINAL {self.atm.id}  {self.atm.bank}')]
        return lines + [self.ln(t, 'ATM IN SERVICE')]

    def restart(self, t: dt.datetime) -> list[str]:
        head = self.r.choice(('*** SYSTEM STARTUP ***', '*** SYSTEM STARTUP ***', 'APPLICATION RESTART'))
        lines = [] if self.s['dated'] else [f'*** {t.strftime(self.s["datefmt"])} ***']
        return lines + [self.ln(t, head)] + self.table(t + dt.timedelta(seconds=40), 'CASSETTE TABLE') + [self.ln(t + dt.timedelta(seconds=70), 'ATM IN SERVICE')]

    def totals(self, t: dt.datetime) -> list[str]:
        return [self.ln(t, 'SUPERVISOR MODE ENTERED')] + self.table(t, 'CASSETTE TOTALS') + [self.ln(t + dt.timedelta(minutes=2), 'SUPERVISOR MODE EXITED')]

    def noise(self, t: dt.datetime) -> list[str]:
        r = self.r
        return r.choice(
            (
                [''],
                [self.ln(t, 'RECEIPT PRINTER PAPER LOW')],
                [self.ln(t, 'HOST CONNECTION LOST'), self.ln(t + dt.timedelta(seconds=r.randint(5, 60)), 'HOST CONNECTION ESTABLISHED')],
                [self.ln(t, 'DOOR OPENED'), self.ln(t, 'DOOR CLOSED')],
                [self.ln(t, f'3207 STATE {r.randint(100, 999)} END-STATE \'{r.choice("ABCD")}\'')],
                ['*' * r.randint(20, 40)],
                [f'{self.ts(t)}\t '],
            )
        )


class Hyosung(Family):
    """Hyosung MoniPlus journal: bracketed time stamps, cassettes named CST1..CST4."""

    name = 'hyosung'
    day: dt.date | None = None
    date = ''

    def ts(self, t: dt.datetime) -> str:
        if not self.s['dated']:
            return f'[{hms(t)}]'
        if self.day != t.date():
            self.day, self.date = t.date(), f'{t:%Y/%m/%d}'
        return f'[{self.date} {hms(t)}]'

    def ln(self, t: dt.datetime, text: str) -> str:
        return f'{self.ts(t)} {text}'

    def cst(self, counts: list[int]) -> str:
        return ' '.join(f'CST{i + 1}:{c:02d}' for i, c in enumerate(counts))

    def start(self, c: Clock, plan: dict) -> list[str]:
        sep = self.s['sep']
        lines = [] if self.s['dated'] else [f'[DATE: {c.t:%Y/%m/%d}]'] if self.r.random() < 0.3 else []
        return lines + [self.ln(c.t, f'{sep} TRANSACTION START {sep}'), self.ln(c.step(), 'CARD INSERTED'), self.ln(c.step(0, 1), f'CARD NO: {pan_masked(plan["card"], 1)}')]

    def event(self, name: str, c: Clock, plan: dict, **kw) -> list[str]:
        r = self.r
        if name == 'pin':
            return [self.ln(c.step(3, 9), 'PIN ENTERED')]
        if name == 'select':
            return [self.ln(c.step(2, 6), plan.get('label', 'WITHDRAWAL'))]
        if name == 'amount':
            return [self.ln(c.step(1, 5), f'REQ AMOUNT: {money(plan["amount"])}')]
        if name == 'request':
            plan['shown'].add('serial')
            return [self.ln(c.step(0, 1), f'HOST REQUEST SENT SEQ NO: {plan["serial"]:04d}')]
        if name == 'approved':
            plan['shown'].update(('serial', 'rrn', 'stan'))
            return [self.ln(c.step(1, 3), f'HOST RESPONSE CODE: 00  SEQ NO: {plan["serial"]:04d}  RRN: {plan["rrn"]}  STAN: {plan["stan"]:06d}')]
        if name == 'declined':
            plan['shown'].update(('serial', 'rrn', 'stan'))
            return [self.ln(c.step(1, 3), f'HOST RESPONSE CODE: {plan["code"]}  SEQ NO: {plan["serial"]:04d}  RRN: {plan["rrn"]}  STAN: {plan["stan"]:06d}'), self.ln(c.t, f'TRANSACTION DECLINED ({plan["reason"]})')]
        if name == 'card_taken':
            return [self.ln(c.step(1, 4), r.choice(('CARD EJECTED', 'CARD TAKEN')))]
        if name == 'dispense_error':
            return [self.ln(c.step(2, 5), f'CDU ERROR CODE: {r.choice(("4311501", "4320002", "4390100"))}'), self.ln(c.t, 'DISPENSE FAILED')]
        if name == 'short_error':
            return [self.ln(c.step(2, 5), f'CDU ERROR CODE: 4311302 (CST{kw["cassette"]} PICK FAIL)')]
        if name == 'reversal':
            return [self.ln(c.step(1, 3), f'REVERSAL REQUEST SENT SEQ NO: {plan["serial"]:04d} RRN: {plan["rrn"]}'), self.ln(c.step(1, 2), 'REVERSAL RESPONSE CODE: 00')]
        if name == 'presented':
            return [self.ln(c.step(2, 4), f'DISPENSE {self.cst(kw["counts"])}'), self.ln(c.step(1, 2), 'NOTES PRESENTED')]
        if name == 'taken':
            return [self.ln(c.step(1, 6), 'NOTES TAKEN')]
        if name == 'timeout':
            return [self.ln(c.step(25, 35), 'PRESENT TIMEOUT')]
        if name == 'retracted':
            return [self.ln(c.step(2, 4), f'NOTES RETRACTED {self.cst(kw["counts"])}')]
        if name == 'end':
            sep = self.s['sep']
            return [self.ln(c.step(2, 6), f'{sep} TRANSACTION END {sep}')]
        return []

    def counter(self, t: dt.datetime) -> list[str]:
        a = self.atm
        lines = [self.ln(t, 'WITHDRAW COUNTER'), 'DENOM  INIT   DIS   REJ  A_RET']
        for i, d in enumerate(a.denoms):
            lines.append(f'{d:>5} {a.loaded[i]:>5} {a.dispensed[i]:>5} {a.rejected[i]:>5} {0:>6}')
        return lines

    def day_open(self, t: dt.datetime, restart: bool) -> list[str]:
        lines = [f'[DATE: {t:%Y/%m/%d}]'] if not self.s['dated'] else []
        if restart:
            lines += [self.ln(t, 'ATM POWER ON'), self.ln(t + dt.timedelta(seconds=30), f'MONIPLUS STARTED  {self.atm.id}  {self.atm.bank}')]
            lines += self.counter(t + dt.timedelta(seconds=40))
        else:
            lines += [self.ln(t, f'JOURNAL START  {self.atm.id}  {self.atm.bank}')]
        return lines + [self.ln(t + dt.timedelta(seconds=60), 'IN SERVICE')]

    def restart(self, t: dt.datetime) -> list[str]:
        lines = [] if self.s['dated'] else [f'[DATE: {t:%Y/%m/%d}]']
        head = self.r.choice(('ATM POWER ON', 'ATM POWER ON', 'APPLICATION RESTARTED'))
        return lines + [self.ln(t, head), self.ln(t + dt.timedelta(seconds=30), 'MONIPLUS STARTED')] + self.counter(t + dt.timedelta(seconds=40)) + [self.ln(t + dt.timedelta(seconds=60), 'IN SERVICE')]

    def totals(self, t: dt.datetime) -> list[str]:
        return [self.ln(t, 'OPERATOR MODE')] + self.counter(t) + [self.ln(t + dt.timedelta(minutes=2), 'IN SERVICE')]

    def noise(self, t: dt.datetime) -> list[str]:
        r = self.r
        return r.choice(
            (
                [''],
                [self.ln(t, 'SPR PAPER NEAR END')],
                [self.ln(t, 'HOST OFFLINE'), self.ln(t + dt.timedelta(seconds=r.randint(5, 60)), 'HOST ONLINE')],
                [self.ln(t, 'SCREEN SAVER ON')],
                [self.ln(t, f'EJ BACKUP {r.randint(1, 99):02d} OK')],
                ['-' * r.randint(20, 40)],
                [f'{self.ts(t)}  '],
            )
        )


FAMILY_CLASSES = {'ncr': Ncr, 'diebold': Diebold, 'hyosung': Hyosung}


# --------------------------------------------------------------------------------------------
# Transactions: the plan (the truth) first, then its lines.
# --------------------------------------------------------------------------------------------


def rrn_of(t: dt.datetime, stan: int) -> str:
    """An Indian switch's RRN: last digit of the year, day of the year, hour, STAN."""
    return f'{t.year % 10}{t.timetuple().tm_yday:03d}{t:%H}{stan:06d}'


def new_card(r: random.Random) -> str:
    return r.choice(BINS) + ''.join(r.choice('0123456789') for _ in range(10))


def plan_withdrawal(atm: Atm, r: random.Random, t: dt.datetime, verdict: str, card: str | None = None, amount: int | None = None) -> dict:
    """Decide a withdrawal's outcome before any line is printed; None amounts are drawn here."""
    for _ in range(50):
        amt = amount or r.choice(AMOUNTS)
        mix = atm.mix(amt, r)
        if mix and (verdict != 'partial' or sum(mix) >= 2):
            break
        amount = None
    else:
        # The cassettes ran dry for every draw: full again, the smallest amount that fits (two notes
        # at least for a partial dispense, which presents fewer than it stacked).
        atm.replenish()
        for amt in sorted(set(AMOUNTS)):
            mix = atm.mix(amt, r)
            if mix and (verdict != 'partial' or sum(mix) >= 2):
                break
    assert mix is not None
    presented = [0] * len(mix)
    if verdict in ('dispensed', 'retracted', 'contradiction') or (verdict == 'indeterminate'):
        presented = list(mix)
    cassette = 0
    if verdict == 'partial':
        used = [i for i, k in enumerate(mix) if k]
        if len(used) > 1:
            cassette = r.choice(used)
            presented = [0 if i == cassette else k for i, k in enumerate(mix)]
        else:
            cassette = used[0]
            presented = list(mix)
            presented[cassette] = r.randint(1, mix[cassette] - 1)
    plan = {
        'kind': 'declined' if verdict == 'declined' else 'withdrawal',
        'verdict': None if verdict == 'declined' else ('indeterminate' if verdict == 'contradiction' else verdict),
        'scenario': 'contradiction' if verdict == 'contradiction' else 'normal',
        't': t,
        'card': card or new_card(r),
        'amount': amt,
        'mix': mix,
        'presented': presented,
        'cassette': cassette + 1,
        'serial': atm.next_serial(),
        'stan': atm.next_stan(),
        'shown': set(),
    }
    plan['rrn'] = rrn_of(t, plan['stan'])
    if verdict == 'declined':
        plan['code'], plan['reason'] = r.choice(DECLINES)
    return plan


class Day:
    """Builds one terminal's journal for a span of time into an Out, and reports each withdrawal."""

    def __init__(self, atm: Atm, r: random.Random, out, emit) -> None:
        self.atm, self.r, self.out, self.emit = atm, r, out, emit
        self.fam: Family = FAMILY_CLASSES[atm.family](atm, r)
        self.others = {'balance': 0, 'mini_statement': 0, 'pin_change': 0, 'cancelled': 0}

    def put(self, lines: list[str]) -> list[int]:
        return [self.out.add(x) for x in lines]

    def withdrawal(self, plan: dict, stop: str | None = None) -> tuple[dict, dt.datetime]:
        """Print a withdrawal; `stop` cuts it short (power cut, restart, end of file)."""
        f, r, atm = self.fam, self.r, self.atm
        c = Clock(plan['t'], r)
        ev: list[int] = []
        plan['shown'].add('card_last4')
        first = self.out.n + 1
        self.put(f.start(c, plan))
        self.put(f.event('pin', c, plan))
        self.put(f.event('select', c, plan))
        self.put(f.event('amount', c, plan))
        self.put(f.event('request', c, plan))

        def done() -> tuple[dict, dt.datetime]:
            return self.record(plan, first, self.out.n, ev, stop), c.t

        if stop == 'after_request':
            ev.append(self.out.n)
            return done()
        receipt = r.random() < atm.receipt_rate
        if plan['kind'] == 'declined':
            ev += self.put(f.event('declined', c, plan))
            self.put(f.event('card_taken', c, plan))
            if receipt:
                self.put(f.receipt(c, plan, plan['reason']))
            self.put(f.event('end', c, plan))
            return done()
        approved = self.put(f.event('approved', c, plan))
        verdict = plan['verdict']
        if verdict in ('not_dispensed', 'reversed'):
            ev += approved[:1]
            ev += self.put(f.event('dispense_error', c, plan))
            if verdict == 'reversed':
                ev += self.put(f.event('reversal', c, plan))
            self.put(f.event('card_taken', c, plan))
            if receipt:
                self.put(f.receipt(c, plan, r.choice(('UNABLE TO DISPENSE CASH', 'TRANSACTION NOT COMPLETED'))))
            self.put(f.event('end', c, plan))
            return done()
        self.put(f.event('stacked', c, plan))
        if stop == 'after_approval':
            ev.append(self.out.n)
            return done()
        if verdict == 'partial':
            ev += self.put(f.event('short_error', c, plan, cassette=plan['cassette']))
        self.put(f.event('card_taken', c, plan))
        counts = plan['presented']
        ev += self.put(f.event('presented', c, plan, counts=counts))
        if stop == 'after_present':
            ev.append(self.out.n)
            return done()
        for i, k in enumerate(counts):
            atm.dispensed[i] += k
        if r.random() < 0.03:
            atm.rejected[r.randrange(len(counts))] += 1
        if verdict == 'retracted':
            ev += self.put(f.event('timeout', c, plan))
            ev += self.put(f.event('retracted', c, plan, counts=counts))
        else:
            ev += self.put(f.event('taken', c, plan))
            if plan['scenario'] == 'contradiction':
                ev += self.put(f.event('retracted', c, plan, counts=counts))
        self.put(f.event('after_taken', c, plan))
        if r.random() < 0.05:
            self.put(r.choice(([''], [' '], ['\x1b(1' + ' ' * r.randint(1, 8)], ['[0r(1)2[000p[040qe1w3h162'] if atm.family == 'ncr' else ['-' * 24])))
        if receipt:
            status = '' if verdict != 'partial' else f'DISPENSED     RS. {money(sum(k * d for k, d in zip(counts, atm.denoms)))}'
            self.put(f.receipt(c, plan, status))
        self.put(f.event('end', c, plan))
        return done()

    def record(self, plan: dict, first: int, last: int, ev: list[int], stop: str | None) -> dict:
        atm = self.atm
        verdict = plan['verdict']
        if stop:
            verdict = 'indeterminate'
        presented = plan['presented'] if verdict not in ('not_dispensed', 'reversed') and plan['kind'] != 'declined' else [0] * len(plan['mix'])
        if stop in ('after_request', 'after_approval'):
            presented = [0] * len(plan['mix'])
        if verdict in ('dispensed', 'partial'):
            amount: str | None = money(sum(k * d for k, d in zip(presented, atm.denoms)))
        elif verdict == 'indeterminate':
            amount = None
        else:
            amount = '0.00'
        rec = {
            'id': '',
            'family': atm.family,
            'atm_id': atm.id,
            'kind': plan['kind'],
            'verdict': verdict,
            'scenario': plan['scenario'] if not stop else plan.get('cut', 'power_cut'),
            'local_time': plan['t'].strftime('%Y-%m-%dT%H:%M:%S'),
            'card_last4': plan['card'][-4:],
            'card_first6': plan['card'][:6],
            'rrn': plan['rrn'],
            'stan': f'{plan["stan"]:06d}',
            'serial': f'{plan["serial"]:04d}',
            'requested_amount': money(plan['amount']),
            'currency': 'INR',
            'notes': [{'cassette': i + 1, 'denomination': money(d), 'count': k} for i, (d, k) in enumerate(zip(atm.denoms, presented))],
            'dispensed_amount': amount,
            'shown': sorted(plan['shown']),
            'lines': [first, last],
            'evidence_lines': sorted(set(ev)),
        }
        if plan.get('twin_of'):
            rec['near_twin_of'] = plan['twin_of']
        if plan['kind'] == 'declined':
            rec['response_code'] = plan['code']
        return rec

    def other(self, kind: str, t: dt.datetime) -> dt.datetime:
        """Balance enquiry, mini statement, PIN change or a cancelled session: not withdrawals."""
        f, r, atm = self.fam, self.r, self.atm
        plan = {'kind': kind, 't': t, 'card': new_card(r), 'serial': atm.next_serial(), 'stan': atm.next_stan(), 'shown': set(), 'amount': 0}
        plan['rrn'] = rrn_of(t, plan['stan'])
        label = {'balance': 'BALANCE INQUIRY', 'mini_statement': 'MINI STATEMENT', 'pin_change': 'PIN CHANGE', 'cancelled': 'WITHDRAWAL'}[kind]
        plan['label'] = label if atm.family != 'diebold' else {'balance': 'BALANCE INQUIRY', 'mini_statement': 'STATEMENT REQUEST', 'pin_change': 'PIN CHANGE', 'cancelled': 'CASH WITHDRAWAL'}[kind]
        plan['opcode'] = {'balance': 'BB', 'mini_statement': 'BC', 'pin_change': 'PC', 'cancelled': 'AB   C'}[kind]
        c = Clock(t, r)
        self.put(f.start(c, plan))
        self.put(f.event('pin', c, plan))
        self.put(f.event('select', c, plan))
        if kind == 'cancelled':
            ts = f.ev(c.step(5, 20), 'TRANSACTION CANCELLED') if isinstance(f, Ncr) else f.ln(c.step(5, 20), 'CUSTOMER CANCELLED')  # type: ignore[attr-defined]
            self.put([ts])
        else:
            if isinstance(f, Ncr):
                self.put([f.ev(c.step(0, 1), 'REQUEST SENT [AMOUNT=00000000]')])
            self.put(f.event('approved', c, plan))
            if r.random() < max(atm.receipt_rate, 0.5):
                lines = f.receipt(c, plan, label)
                if kind == 'balance':
                    lines.insert(-1, f'AVAILABLE BAL  RS. {money(r.randint(100, 500000) + r.randint(0, 99) / 100)}')
                elif kind == 'mini_statement':
                    d0 = t.date()
                    for k in range(r.randint(3, 8)):
                        day = d0 - dt.timedelta(days=k * r.randint(1, 4))
                        lines.insert(-1, f'{day:%d/%m/%y}  {r.choice(("ATM WDL", "UPI/P2M", "NEFT CR", "POS"))}  {money(r.randint(1, 5000) * 10)} {r.choice("DC")}')
                else:
                    lines.insert(-1, 'PIN CHANGED SUCCESSFULLY')
                self.put(lines)
        self.put(f.event('card_taken', c, plan))
        self.put(f.event('end', c, plan))
        self.others[kind] += 1
        return c.t

    def run(self, day: dt.date, n: int, forced: tuple[str, ...], end_mid: bool, restart_at_open: bool, noise: float = 0.04, start: dt.datetime | None = None) -> None:
        r, atm, f = self.r, self.atm, self.fam
        t = start or dt.datetime.combine(day, dt.time(0, r.randint(0, 20), r.randint(0, 59)))
        if atm.remaining() and min(atm.remaining()) < 400:
            atm.replenish()
        self.put(f.day_open(t, restart_at_open))
        slots: list[str] = ['random'] * n
        positions = r.sample(range(max(n - 1, len(forced))), len(forced)) if forced else []
        for pos, name in zip(positions, forced):
            slots.insert(pos, name)
        if end_mid:
            slots.append('eof')
        # Sessions spread over the day: each gap is drawn from the time left, so the day ends before midnight.
        close = dt.datetime.combine(t.date(), dt.time(23, 45))
        for k, slot in enumerate(slots):
            left = len(slots) - k
            must = sum(1 for x in slots[k:] if x != 'random')
            if slot == 'random' and (close - t).total_seconds() < (must + 1) * 400:
                continue  # a busy day: the last sessions are dropped, never the scenarios
            spare = (close - t).total_seconds() - left * 150
            gap = max(5.0, spare / left)
            t += dt.timedelta(seconds=int(min(r.expovariate(1 / gap), 3 * gap, max(spare, 0) * r.uniform(0.5, 1))) + 5)
            if r.random() < noise:
                self.put(f.noise(t))
                t += dt.timedelta(seconds=61)
            if slot == 'random':
                x = r.random()
                if x < 0.22:
                    t = self.other(r.choice(('balance', 'balance', 'mini_statement', 'pin_change', 'cancelled')), t)
                    continue
                verdict = 'dispensed'
                if x > 0.9:
                    verdict = r.choice(('declined', 'declined', 'declined', 'not_dispensed', 'retracted', 'partial', 'reversed', 'contradiction'))
                rec, t = self.withdrawal(plan_withdrawal(atm, r, t, verdict))
                self.emit(rec)
            elif slot in ('power_cut', 'eof'):
                plan = plan_withdrawal(atm, r, t, 'indeterminate')
                plan['cut'] = slot
                stop = r.choice(('after_request', 'after_approval', 'after_present'))
                rec, t = self.withdrawal(plan, stop)
                if slot == 'eof':
                    rec['evidence_lines'] = sorted(set(rec['evidence_lines'] + [self.out.n]))
                    self.emit(rec)
                    return
                t += dt.timedelta(seconds=r.randint(60, 900))
                lines = f.restart(t)
                at = next(i for i, x in enumerate(lines) if any(w in x for w in ('POWER', 'RESTART', 'STARTUP')))
                rec['evidence_lines'] = sorted(set(rec['evidence_lines'] + [self.out.n + 1 + at]))
                self.put(lines)
                self.emit(rec)
            elif slot == 'near_twin':
                failed = r.choice(('not_dispensed', 'reversed', 'retracted'))
                plan = plan_withdrawal(atm, r, t, failed)
                plan['scenario'] = 'near_twin_first'
                rec, ended = self.withdrawal(plan)
                self.emit(rec)
                # The customer tries again about a minute later, same card and amount, and gets the cash.
                t = max(plan['t'] + dt.timedelta(seconds=r.randint(60, 75)), ended + dt.timedelta(seconds=5))
                twin = plan_withdrawal(atm, r, t, 'dispensed', card=plan['card'], amount=plan['amount'])
                twin['scenario'] = 'near_twin'
                twin['twin_of'] = rec
                rec2, t = self.withdrawal(twin)
                self.emit(rec2)
            else:
                rec, t = self.withdrawal(plan_withdrawal(atm, r, t, slot))
                rec['scenario'] = 'forced'
                self.emit(rec)
        self.put(f.totals(t + dt.timedelta(minutes=r.randint(2, 20))))


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------


def file_name(family: str, atm: Atm, day: dt.date, with_atm: bool, part: int | None = None) -> str:
    d = f'{day:%Y%m%d}'
    suffix = f'_{part}' if part else ''
    if with_atm:
        return {'ncr': f'EJ_{atm.id}_{d}{suffix}.txt', 'diebold': f'{atm.id}_{d}{suffix}.jrn', 'hyosung': f'{atm.id}_EJ_{d}{suffix}.log'}[family]
    # Several terminals' journals of a day in one folder: MSPs number them.
    n = f'{atm.index + 1:02d}'
    return {'ncr': f'EJ_{day:%Y_%m_%d}_{n}{suffix}.txt', 'diebold': f'{d}_{n}{suffix}.jrn', 'hyosung': f'EJ{d}_{n}{suffix}.log'}[family]


def encode(lines: list[str], eol: str, encoding: str, bom: bool, final_eol: bool) -> bytes:
    text = eol.join(lines) + (eol if final_eol else '')
    data = text.encode(encoding)
    return (b'\xef\xbb\xbf' + data) if bom else data


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Generator:
    def __init__(self, args: argparse.Namespace) -> None:
        self.a = args
        self.out_dir = args.out
        self.eol = '\r\n' if args.crlf else '\n'
        self.files: list[dict] = []
        # Withdrawals go to a spool file as each journal is done: memory stays flat for 1,000 journals.
        # The first journal of each family (every scenario) is kept for the complaint mails.
        self.spool_path = os.path.join(args.out, '.withdrawals.jsonl') if args.out else ''
        self.spool = None
        self.count = 0
        self.sample: list[dict] = []
        self.splits: list[dict] = []
        self.zips: list[dict] = []
        self.mails: list[dict] = []
        self.big: list[dict] = []
        self.families = FAMILIES if args.family == 'all' else (args.family,)
        self.start = dt.date.fromisoformat(args.start)

    def read(self, name: str) -> bytes:
        with open(os.path.join(self.out_dir, name), 'rb') as f:
            return f.read()

    def write(self, name: str, data: bytes) -> None:
        with open(os.path.join(self.out_dir, name), 'wb') as f:
            f.write(data)

    def add_file(self, name: str, data: bytes, meta: dict) -> None:
        self.write(name, data)
        self.files.append({'name': name, **meta, 'bytes': len(data), 'sha256': sha256(data)})

    def journals(self) -> None:
        a = self.a
        for family in self.families:
            for i in range(a.atms):
                atm = Atm(family, i, a.seed, a.encoding)
                for d in range(a.days):
                    day = self.start + dt.timedelta(days=d)
                    self.journal(atm, day, first=(i == 0 and d == 0))

    def journal(self, atm: Atm, day: dt.date, first: bool) -> None:
        a = self.a
        r = random.Random(f'{a.seed}:day:{atm.family}:{atm.index}:{day}')
        out = Out()
        recs: list[dict] = []
        day_builder = Day(atm, r, out, recs.append)
        n = a.txns if a.txns else r.randint(90, 170)
        # The first journal of each family holds every scenario and ends mid-transaction.
        forced = FORCED if first else ()
        end_mid = first or r.random() < 0.05
        day_builder.run(day, n, forced, end_mid, restart_at_open=end_mid or r.random() < 0.3)
        for k, rec in enumerate(recs):
            rec['id'] = f'{atm.family}-{atm.id}-{day:%Y%m%d}-{k + 1:04d}'
        for rec in recs:
            twin = rec.pop('near_twin_of', None)
            if twin:
                rec['near_twin_of'] = twin['id']
        bom = a.encoding == 'utf-8' and r.random() < 0.1
        final_eol = not end_mid or r.random() < 0.5
        meta = {'family': atm.family, 'atm_id': atm.id, 'day': day.isoformat(), 'encoding': a.encoding, 'bom': bom, 'line_end': 'crlf' if a.crlf else 'lf', 'ends_mid_transaction': end_mid, 'others': day_builder.others}
        lines = out.lines
        cut_rec = None
        if a.split and first:
            # Cut inside a completed withdrawal near the middle (never the forced ones' first lines).
            candidates = [x for x in recs if x['verdict'] == 'dispensed' and x['scenario'] == 'normal' and x['lines'][1] - x['lines'][0] >= 3]
            cut_rec = candidates[len(candidates) // 2] if candidates else None
        if cut_rec:
            lo, hi = cut_rec['lines']
            cut = r.randint(lo, hi - 1)
            names = [file_name(atm.family, atm, day, not a.no_atm_in_name, p) for p in (1, 2)]
            self.add_file(names[0], encode(lines[:cut], self.eol, a.encoding, bom, True), {**meta, 'part': 1, 'ends_mid_transaction': True, 'lines': cut})
            self.add_file(names[1], encode(lines[cut:], self.eol, a.encoding, False, final_eol), {**meta, 'part': 2, 'lines': len(lines) - cut})
            self.splits.append({'journal': file_name(atm.family, atm, day, not a.no_atm_in_name), 'parts': names, 'cut_after_line': cut, 'transaction': cut_rec['id']})
            for rec in recs:
                lo, hi = rec['lines']
                segs = []
                if lo <= cut:
                    segs.append({'file': names[0], 'lines': [lo, min(hi, cut)], 'evidence_lines': [e for e in rec['evidence_lines'] if e <= cut]})
                if hi > cut:
                    segs.append({'file': names[1], 'lines': [max(lo, cut + 1) - cut, hi - cut], 'evidence_lines': [e - cut for e in rec['evidence_lines'] if e > cut]})
                self.finish(rec, segs)
                if len(segs) == 2:
                    rec['scenario'] = 'split'
        else:
            name = file_name(atm.family, atm, day, not a.no_atm_in_name)
            self.add_file(name, encode(lines, self.eol, a.encoding, bom, final_eol), {**meta, 'part': None, 'lines': len(lines)})
            for rec in recs:
                self.finish(rec, [{'file': name, 'lines': rec['lines'], 'evidence_lines': rec['evidence_lines']}])
        if first:
            self.sample.extend(recs)
        assert self.spool is not None
        for rec in recs:
            self.spool.write(json.dumps(rec, ensure_ascii=False) + '\n')
        self.count += len(recs)

    @staticmethod
    def finish(rec: dict, segs: list[dict]) -> None:
        rec['segments'] = segs
        rec['file'] = segs[0]['file']
        rec['lines'] = segs[0]['lines']
        rec['evidence_lines'] = segs[0]['evidence_lines']

    # ---- big file --------------------------------------------------------------------------

    def big_file(self, family: str) -> None:
        a = self.a
        atm = Atm(family, 99, a.seed, a.encoding)
        day = self.start
        name = f'BIG_{file_name(family, atm, day, True)}'
        truth = name + '.truth.jsonl'
        out = StreamOut(os.path.join(self.out_dir, name), self.eol, a.encoding)
        count = {'n': 0}
        verdicts: dict[str, int] = {}
        with open(os.path.join(self.out_dir, truth), 'w', encoding='utf-8') as tf:

            def emit(rec: dict) -> None:
                count['n'] += 1
                rec['id'] = f'{family}-{atm.id}-big-{count["n"]:07d}'
                twin = rec.pop('near_twin_of', None)
                if twin:
                    rec['near_twin_of'] = twin['id']
                rec['file'] = name
                rec['segments'] = [{'file': name, 'lines': rec['lines'], 'evidence_lines': rec['evidence_lines']}]
                key = rec['verdict'] or 'declined'
                verdicts[key] = verdicts.get(key, 0) + 1
                tf.write(json.dumps(rec, ensure_ascii=False) + '\n')

            target = int(a.size_mb * 1024 * 1024)
            d = 0
            while out.size + sum(len(x) + 2 for x in out.buf) < target:
                r = random.Random(f'{a.seed}:big:{family}:{d}')
                Day(atm, r, out, emit).run(day + dt.timedelta(days=d), 400, FORCED if d == 0 else (), False, d == 0)
                d += 1
            out.close()
        self.files.append({'name': name, 'family': family, 'atm_id': atm.id, 'day': day.isoformat(), 'days': d, 'encoding': a.encoding, 'bom': False, 'line_end': 'crlf' if a.crlf else 'lf', 'part': None, 'lines': out.count, 'bytes': out.size, 'sha256': out.sha.hexdigest(), 'ends_mid_transaction': False, 'truth': truth, 'withdrawals': count['n'], 'verdicts': verdicts})

    # ---- ZIP and mail ----------------------------------------------------------------------

    def zip_bytes(self, names: list[str]) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED, compresslevel=6) as z:
            for n in names:
                info = zipfile.ZipInfo(n, date_time=(self.start.year, self.start.month, self.start.day, 23, 59, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, self.read(n))
        return buf.getvalue()

    def zip_of_journals(self) -> None:
        journal_files = [f['name'] for f in self.files if 'truth' not in f]
        members = journal_files[: max(2, min(8, len(journal_files)))]
        name = f'journals_{self.start:%Y%m%d}.zip'
        data = self.zip_bytes(members)
        self.write(name, data)
        self.zips.append({'name': name, 'sha256': sha256(data), 'bytes': len(data), 'members': members})

    def mail(self) -> None:
        os.makedirs(os.path.join(self.out_dir, 'mail'), exist_ok=True)
        r = random.Random(f'{self.a.seed}:mail')
        by_family: dict[str, list[dict]] = {}
        for w in self.sample:
            by_family.setdefault(w['family'], []).append(w)
        k = 0
        for family, ws in by_family.items():
            picked = [w for w in ws if w['verdict'] in ('not_dispensed', 'retracted', 'reversed', 'partial', 'indeterminate') or w['scenario'] == 'near_twin']
            picked += r.sample([w for w in ws if w['verdict'] == 'dispensed'], min(2, len([w for w in ws if w['verdict'] == 'dispensed'])))
            picked = sorted({w['id']: w for w in picked}.values(), key=lambda w: w['id'])[:14]
            for fmt in ('csv', 'html'):
                k += 1
                self.complaint_mail(k, family, fmt, picked[::2] if fmt == 'csv' else picked[1::2], r)
        journals = [f['name'] for f in self.files if 'truth' not in f]
        if journals:
            k += 1
            self.journal_mail(k, [journals[0]], 'plain', r)
            k += 1
            self.journal_mail(k, journals[1:4] or journals[:1], 'several', r)
            k += 1
            self.journal_mail(k, journals[:5], 'zip', r)
            k += 1
            self.journal_mail(k, [journals[-1]], 'nocharset', r)

    def complaint_mail(self, k: int, family: str, fmt: str, rows: list[dict], r: random.Random) -> None:
        header = ['ATM ID', 'Card No', 'Txn No', 'Transaction Date', 'Transaction Amount', 'Dispute Amount', 'Complaint Date']
        table, truth = [], []
        for w in rows:
            kind = r.choice(('rrn', 'stan', 'serial'))
            txn_no = w[kind]
            when = dt.datetime.fromisoformat(w['local_time'])
            datefmt = r.choice(('%d/%m/%Y', '%d-%m-%Y', '%Y-%m-%d', '%d/%m/%y'))
            requested = float(w['requested_amount'])
            dispute = requested - float(w['dispensed_amount']) if w['verdict'] == 'partial' else requested
            card = pan_masked(w['card_first6'] + '000000' + w['card_last4'], r.choice((0, 2)))
            complaint = when.date() + dt.timedelta(days=r.randint(1, 3))
            amount_text = f'{requested:,.2f}' if r.random() < 0.5 else money(requested)
            table.append([w['atm_id'], card, txn_no, when.strftime(datefmt), amount_text, money(dispute), complaint.strftime('%d/%m/%Y')])
            truth.append({'withdrawal': w['id'], 'atm_id': w['atm_id'], 'card_no': card, 'txn_no': txn_no, 'txn_no_kind': kind, 'txn_no_shown': kind in w['shown'], 'transaction_date': when.date().isoformat(), 'transaction_amount': money(requested), 'dispute_amount': money(dispute), 'complaint_date': complaint.isoformat()})
        msg = EmailMessage()
        msg['From'] = 'ATM Disputes <disputes@apexbank.example>'
        msg['To'] = 'ej-desk@operations.example'
        msg['Subject'] = f'ATM cash disputes {family.upper()} terminals - {self.start:%d/%m/%Y}'
        msg['Date'] = format_datetime(dt.datetime.combine(self.start, dt.time(9, k), tzinfo=dt.timezone.utc))
        msg['Message-ID'] = f'<ejgen-{self.a.seed}-{k}@apexbank.example>'
        attachments = []
        if fmt == 'csv':
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator='\r\n')
            w.writerow(header)
            w.writerows(table)
            msg.set_content('Dear team,\n\nPlease find the customer complaints attached and share the EJ.\n\nRegards\nATM Cell')
            msg.add_attachment(buf.getvalue().encode('utf-8'), maintype='text', subtype='csv', filename=f'disputes_{family}_{k}.csv')
            attachments.append({'filename': f'disputes_{family}_{k}.csv', 'content_type': 'text/csv', 'charset': None, 'journals': []})
        else:
            cells = ''.join(f'<th>{h}</th>' for h in header)
            body = ''.join('<tr>' + ''.join(f'<td>{c}</td>' for c in row) + '</tr>' for row in table)
            msg.set_content('Please see the disputes below.')
            msg.add_alternative(f'<html><body><p>Dear team,</p><p>Please check the disputes below.</p><table border="1"><tr>{cells}</tr>{body}</table><p>Regards</p></body></html>', subtype='html')
        name = f'{k:02d}-complaint-{family}-{fmt}.eml'
        self.write_mail(name, msg, k)
        self.mails.append({'file': f'mail/{name}', 'kind': 'complaint', 'format': fmt, 'subject': msg['Subject'], 'attachments': attachments, 'rows': truth})

    def journal_mail(self, k: int, names: list[str], how: str, r: random.Random) -> None:
        msg = EmailMessage()
        msg['From'] = 'MSP Operations <ops@atlas-atm.example>'
        msg['To'] = 'ej-desk@operations.example'
        msg['Subject'] = f'EJ for disputed transactions ({how})'
        msg['Date'] = format_datetime(dt.datetime.combine(self.start + dt.timedelta(days=2), dt.time(11, k), tzinfo=dt.timezone.utc))
        msg['Message-ID'] = f'<ejgen-{self.a.seed}-{k}@atlas-atm.example>'
        msg.set_content('Hi,\n\nEJ attached as requested.\n\nThanks')
        attachments = []
        charset = 'windows-1252' if self.a.encoding == 'cp1252' else 'utf-8'
        if how == 'zip':
            data = self.zip_bytes(names)
            msg.add_attachment(data, maintype='application', subtype='zip', filename=f'EJ_{self.start:%d%m%Y}.zip')
            attachments.append({'filename': f'EJ_{self.start:%d%m%Y}.zip', 'content_type': 'application/zip', 'charset': None, 'journals': names, 'sha256': sha256(data)})
        else:
            for n in names:
                if how == 'nocharset':
                    msg.add_attachment(self.read(n), maintype='application', subtype='octet-stream', filename=n)
                    attachments.append({'filename': n, 'content_type': 'application/octet-stream', 'charset': None, 'journals': [n]})
                else:
                    msg.add_attachment(self.read(n), maintype='text', subtype='plain', filename=n, params={'charset': charset})
                    attachments.append({'filename': n, 'content_type': 'text/plain', 'charset': charset, 'journals': [n]})
        name = f'{k:02d}-journal-{how}.eml'
        self.write_mail(name, msg, k)
        self.mails.append({'file': f'mail/{name}', 'kind': 'journal', 'format': how, 'subject': msg['Subject'], 'attachments': attachments, 'rows': []})

    def write_mail(self, name: str, msg: EmailMessage, k: int) -> None:
        # The email package draws multipart boundaries at random: fix them so a seed gives the same bytes.
        for i, part in enumerate(msg.walk()):
            if part.is_multipart():
                part.set_boundary(f'==ejgen-{self.a.seed}-{k}-{i}==')
        self.write(os.path.join('mail', name), bytes(msg))

    def manifest(self) -> None:
        doc = {
            'generator': 'ejgen',
            'version': 1,
            'seed': self.a.seed,
            'options': {k: v for k, v in vars(self.a).items() if k not in ('out', 'bad')},
            'families': list(self.families),
            'files': self.files,
            'withdrawals': None,
            'splits': self.splits,
            'zips': self.zips,
            'mails': self.mails,
        }
        # One record a line: readable with grep, and written by json's fast encoder.
        with open(os.path.join(self.out_dir, 'manifest.json'), 'w', encoding='utf-8') as f:
            f.write('{\n')
            for i, (key, value) in enumerate(doc.items()):
                f.write(f'{json.dumps(key)}: ')
                if key == 'withdrawals':
                    f.write('[')
                    with open(self.spool_path, encoding='utf-8') as spool:
                        for k, line in enumerate(spool):
                            f.write(('\n' if k == 0 else ',\n') + line.rstrip('\n'))
                    f.write('\n]' if self.count else ']')
                elif isinstance(value, list) and value:
                    f.write('[\n' + ',\n'.join(json.dumps(v, ensure_ascii=False) for v in value) + '\n]')
                else:
                    f.write(json.dumps(value, ensure_ascii=False))
                f.write(',\n' if i < len(doc) - 1 else '\n')
            f.write('}\n')

    def run(self) -> None:
        os.makedirs(self.out_dir, exist_ok=True)
        self.spool = open(self.spool_path, 'w', encoding='utf-8')
        self.journals()
        self.spool.close()
        if self.a.size_mb:
            for family in self.families:
                self.big_file(family)
        if self.a.zip and any('truth' not in f for f in self.files):
            self.zip_of_journals()
        if self.a.mail:
            self.mail()
        self.manifest()
        os.remove(self.spool_path)


# --------------------------------------------------------------------------------------------
# Bad inputs, for the parser's and the ingester's refusals
# --------------------------------------------------------------------------------------------


def png_bytes(width: int = 48, height: int = 32) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw += bytes(((x * 5) % 256, (y * 8) % 256, ((x + y) * 3) % 256))
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(bytes(raw), 9)) + chunk(b'IEND', b'')


def _gf2_times(mat: list[int], vec: int) -> int:
    s, i = 0, 0
    while vec:
        if vec & 1:
            s ^= mat[i]
        vec >>= 1
        i += 1
    return s


def _gf2_square(mat: list[int]) -> list[int]:
    return [_gf2_times(mat, mat[n]) for n in range(32)]


def crc32_combine(crc1: int, crc2: int, len2: int) -> int:
    """zlib's crc32_combine: the CRC of A+B from the CRCs of A and B and B's length."""
    if len2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << n for n in range(31)]
    even = _gf2_square(odd)
    odd = _gf2_square(even)
    while True:
        even = _gf2_square(odd)
        if len2 & 1:
            crc1 = _gf2_times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = _gf2_square(even)
        if len2 & 1:
            crc1 = _gf2_times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


def write_bomb(path: str, total: int) -> None:
    """A ZIP whose one entry inflates to `total` zero bytes (2 GB by default), written in a stream.

    Zeros go through zlib 1 MiB at a time with a full flush, which resets the compressor, so every
    chunk compresses to the same bytes: those are computed once and written again for each chunk
    (compressing 2 GB for real takes most of a minute). The CRC comes from zlib's combine math."""
    chunk = 1 << 20
    full, rest = divmod(total, chunk)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = comp.compress(bytes(chunk)) + comp.flush(zlib.Z_FULL_FLUSH)
    tail_comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    tail = tail_comp.compress(bytes(rest)) + tail_comp.flush(zlib.Z_FINISH)
    crc_chunk = zlib.crc32(bytes(chunk))
    crc = 0
    # CRC of `full` chunks by doubling: crc(2n chunks) = combine(crc(n), crc(n), n bytes).
    acc_crc, acc_len, n = crc_chunk, chunk, full
    have = False
    while n:
        if n & 1:
            crc = crc32_combine(crc, acc_crc, acc_len) if have else acc_crc
            have = True
        acc_crc = crc32_combine(acc_crc, acc_crc, acc_len)
        acc_len *= 2
        n >>= 1
    crc = crc32_combine(crc, zlib.crc32(bytes(rest)), rest) if have else zlib.crc32(bytes(rest))
    csize = len(block) * full + len(tail)
    name = b'statement.txt'
    dos_time, dos_date = (0 << 11) | (0 << 5), ((2025 - 1980) << 9) | (1 << 5) | 1
    local = struct.pack('<IHHHHHIIIHH', 0x04034B50, 20, 0, 8, dos_time, dos_date, crc, csize, total, len(name), 0) + name
    with open(path, 'wb') as f:
        f.write(local)
        for _ in range(full):
            f.write(block)
        f.write(tail)
        offset = len(local) + csize
        central = struct.pack('<IHHHHHHIIIHHHHHII', 0x02014B50, 20, 20, 0, 8, dos_time, dos_date, crc, csize, total, len(name), 0, 0, 0, 0, 0, 0) + name
        f.write(central)
        f.write(struct.pack('<IHHHHIIH', 0x06054B50, 0, 0, 1, 1, len(central), offset, 0))


PROSE = (
    'The committee met on Tuesday to review the quarterly figures. Attendance was good, and the '
    'discussion ranged from the new branch in the old market to the cost of the staff canteen. '
    'Several members asked whether the annual picnic could be moved to the cooler months, and the '
    'secretary promised to circulate a short note with the options before the next meeting. '
    'There being no other business, the chair thanked everyone and closed the meeting at five.\n'
)


def write_bad(directory: str, seed: int, bomb_bytes: int) -> None:
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, 'empty.txt'), 'wb'):
        pass
    with open(os.path.join(directory, 'image.png'), 'wb') as f:
        f.write(png_bytes())
    with open(os.path.join(directory, 'prose.txt'), 'w', encoding='utf-8') as f:
        f.write(PROSE)
    with open(os.path.join(directory, 'random.bin'), 'wb') as f:
        f.write(random.Random(f'{seed}:random.bin').randbytes(64 * 1024))
    write_bomb(os.path.join(directory, 'bomb.zip'), bomb_bytes)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description='ATM electronic journals with their ground truth (see README.md).')
    p.add_argument('--out', help='directory for the journals and manifest.json')
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--family', choices=(*FAMILIES, 'all'), default='all')
    p.add_argument('--atms', type=int, default=1, help='terminals per family')
    p.add_argument('--days', type=int, default=1)
    p.add_argument('--txns', type=int, default=0, help='sessions per journal (default 120-220 at random)')
    p.add_argument('--start', default='2025-02-04', help='the first day, YYYY-MM-DD')
    p.add_argument('--crlf', action='store_true')
    p.add_argument('--encoding', choices=('utf-8', 'cp1252'), default='utf-8')
    p.add_argument('--split', action='store_true', help="cut each family's first journal in two inside a transaction")
    p.add_argument('--zip', action='store_true')
    p.add_argument('--no-atm-in-name', action='store_true')
    p.add_argument('--mail', action='store_true')
    p.add_argument('--size-mb', type=float, default=0)
    p.add_argument('--bad', help='directory for the bad inputs (empty, PNG, prose, random, ZIP bomb)')
    p.add_argument('--bomb-bytes', type=int, default=2_000_000_000, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if not a.out and not a.bad:
        p.error('give --out DIR, --bad DIR or both')
    if a.atms < 0 or a.days < 1 or a.txns < 0:
        p.error('--atms must be 0 or more, --days 1 or more')
    if a.bad:
        write_bad(a.bad, a.seed, a.bomb_bytes)
    if a.out:
        Generator(a).run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
