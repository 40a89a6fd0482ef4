#!/usr/bin/env python3
"""Independent oracle for dispute-clock due dates.

Derives, from the public rules only (no product code is read or imported):
  * two holiday calendars (us-federal-reserve, target2) for 2026-2028, and
  * a table of (clock, start) -> due cases,
and writes them to packages/db/test/fixtures/rule-windows.json.

Standard library only.  Run from anywhere:
    python3 tools/rule-windows/make_table.py

Every due date is computed here; nothing in the table is typed by hand except
the start days and the short descriptions.  Claims made in the descriptions
(weekday of the start, "starts on a holiday", "crosses holiday X") are checked
by assertions below, so a wrong description stops the script.
"""

import datetime as dt
import json
import os
from collections import Counter

YEARS = (2026, 2027, 2028)
FIRST_DAY = dt.date(2026, 1, 1)
LAST_DAY = dt.date(2028, 12, 31)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(REPO, "packages", "db", "test", "fixtures", "rule-windows.json")

MON, TUE, WED, THU, FRI, SAT, SUN = range(7)
WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def d(s):
    return dt.date.fromisoformat(s)


def nth_weekday(year, month, weekday, n):
    """The n-th (1-based) given weekday of a month."""
    first = dt.date(year, month, 1)
    offset = (weekday - first.weekday()) % 7
    return first + dt.timedelta(days=offset + 7 * (n - 1))


def last_weekday(year, month, weekday):
    """The last given weekday of a month."""
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


# ---------------------------------------------------------------------------
# 1a. Federal Reserve System holidays.
#
# Source: the Federal Reserve's published holiday schedule ("Holidays
# Observed by the Federal Reserve System") -- the 11 federal holidays of
# 5 U.S.C. 6103(a):
#   New Year's Day (Jan 1), Birthday of Martin Luther King Jr. (3rd Monday of
#   January), Washington's Birthday (3rd Monday of February), Memorial Day
#   (last Monday of May), Juneteenth National Independence Day (June 19),
#   Independence Day (July 4), Labor Day (1st Monday of September), Columbus
#   Day (2nd Monday of October), Veterans Day (Nov 11), Thanksgiving Day (4th
#   Thursday of November), Christmas Day (Dec 25).
# Observance (the Fed's own footnote, which differs from the OPM rule for
# federal employees): "For holidays falling on Saturday, Federal Reserve
# Banks and Branches will be open the preceding Friday ... For holidays
# falling on Sunday, all Federal Reserve Banks and Branches will be closed
# the following Monday."  So: Sunday -> observed Monday; Saturday -> not
# moved, i.e. no weekday closure at all (the date is left out of the list).
# ---------------------------------------------------------------------------
def fed_holidays_nominal(year):
    return {
        "New Year's Day": dt.date(year, 1, 1),
        "Martin Luther King Jr. Day": nth_weekday(year, 1, MON, 3),
        "Washington's Birthday": nth_weekday(year, 2, MON, 3),
        "Memorial Day": last_weekday(year, 5, MON),
        "Juneteenth": dt.date(year, 6, 19),
        "Independence Day": dt.date(year, 7, 4),
        "Labor Day": nth_weekday(year, 9, MON, 1),
        "Columbus Day": nth_weekday(year, 10, MON, 2),
        "Veterans Day": dt.date(year, 11, 11),
        "Thanksgiving Day": nth_weekday(year, 11, THU, 4),
        "Christmas Day": dt.date(year, 12, 25),
    }


def fed_observed(day):
    """Fed observance rule: Sunday -> next Monday; Saturday -> None (not
    observed on a weekday); weekday -> itself."""
    if day.weekday() == SUN:
        return day + dt.timedelta(days=1)
    if day.weekday() == SAT:
        return None
    return day


def us_federal_reserve_calendar(years):
    out = {}
    for y in years:
        for name, nominal in fed_holidays_nominal(y).items():
            obs = fed_observed(nominal)
            if obs is not None:
                out[obs] = name + ("" if obs == nominal else " (observed)")
    return out


# ---------------------------------------------------------------------------
# 1b. TARGET2 / T2 closing days.
#
# Source: ECB, TARGET2 / T2 calendar ("TARGET closing days"): in addition to
# Saturdays and Sundays, TARGET is closed on New Year's Day, Good Friday,
# Easter Monday, 1 May (Labour Day), Christmas Day and 26 December.  There is
# no substitution when one of these falls on a weekend; weekend dates are
# still listed (they are closing days anyway).
# ---------------------------------------------------------------------------
def easter_meeus(year):
    """Western (Gregorian) Easter Sunday, anonymous Gregorian algorithm
    (Meeus/Jones/Butcher)."""
    a = year % 19
    b, c = divmod(year, 100)
    d_, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d_ - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return dt.date(year, month, day + 1)


def easter_oudin(year):
    """Second, independent Easter computation (Oudin 1940 / Claus Tondering's
    formulation) used only to cross-check easter_meeus."""
    g = year % 19
    c = year // 100
    h = (c - c // 4 - (8 * c + 13) // 25 + 19 * g + 15) % 30
    i = h - (h // 28) * (1 - (h // 28) * (29 // (h + 1)) * ((21 - g) // 11))
    j = (year + year // 4 + i + 2 - c + c // 4) % 7
    p = i - j
    month = 3 + (p + 40) // 44
    day = p + 28 - 31 * (month // 4)
    return dt.date(year, month, day)


def target2_calendar(years):
    out = {}
    for y in years:
        easter = easter_meeus(y)
        assert easter == easter_oudin(y), (y, easter, easter_oudin(y))
        assert easter.weekday() == SUN
        out[dt.date(y, 1, 1)] = "New Year's Day"
        out[easter - dt.timedelta(days=2)] = "Good Friday"
        out[easter + dt.timedelta(days=1)] = "Easter Monday"
        out[dt.date(y, 5, 1)] = "Labour Day"
        out[dt.date(y, 12, 25)] = "Christmas Day"
        out[dt.date(y, 12, 26)] = "Boxing Day (26 December)"
    return out


CALENDARS = {
    "us-federal-reserve": us_federal_reserve_calendar(YEARS),
    "target2": target2_calendar(YEARS),
}

# Sanity: every Fed date listed is an observed weekday closure.
for _day in CALENDARS["us-federal-reserve"]:
    assert _day.weekday() < SAT, _day


# ---------------------------------------------------------------------------
# 2. Day counting.
#   business day: Monday-Friday and not a holiday of the clock's calendar.
#   N business days from S: the N-th business day strictly AFTER S (S is
#   never counted, business day or not).
#   N calendar days from S: S + N days.
# ---------------------------------------------------------------------------
def is_business_day(day, calendar_name):
    return day.weekday() < SAT and day not in CALENDARS[calendar_name]


def add_business_days(start, n, calendar_name):
    day, counted = start, 0
    while counted < n:
        day += dt.timedelta(days=1)
        # The calendars only cover 2026-2028; refuse to count past them.
        assert day <= LAST_DAY, ("window runs past the calendar", start, n)
        if is_business_day(day, calendar_name):
            counted += 1
    return day


def add_calendar_days(start, n):
    return start + dt.timedelta(days=n)


# ---------------------------------------------------------------------------
# 3. The clocks: key -> (unit, N, calendar or None, rule).
# ---------------------------------------------------------------------------
CAL, BUS = "calendar", "business"
CLOCKS = {
    # RBI circular DPSS.CO.PD No.629/02.01.014/2019-20 (harmonised TAT),
    # failed ATM cash withdrawal: auto-reversal by T+5 days.
    "rbi.tat": (CAL, 5, None),
    # NPCI NFS dispute rules: chargeback within 60 days of the transaction.
    "nfs.chargeback": (CAL, 60, None),
    # NPCI NFS: acquirer represents (with EJ) or accepts within 5 days of the chargeback.
    "nfs.representment": (CAL, 5, None),
    # NPCI NFS: pre-arbitration within 30 days of the representment.
    "nfs.pre_arbitration": (CAL, 30, None),
    # NPCI NFS: arbitration within 30 days of the pre-arbitration.
    "nfs.arbitration": (CAL, 30, None),
    # Visa Core Rules, dispute condition 13.9 (non-receipt of cash):
    # 120 days from the transaction processing date.
    "visa.dispute": (CAL, 120, None),
    # Visa: acquirer dispute response within 30 days.
    "visa.response": (CAL, 30, None),
    # Visa: issuer pre-arbitration within 30 days of the response.
    "visa.pre_arbitration": (CAL, 30, None),
    # Visa: acquirer pre-arbitration response within 30 days.
    "visa.pre_arbitration_response": (CAL, 30, None),
    # Regulation E, 12 CFR 1005.11(c)(1): investigate within 10 business days
    # of receiving the notice of error (US business days -> Fed calendar).
    "rege.investigate": (BUS, 10, "us-federal-reserve"),
    # Regulation E, 12 CFR 1005.11(c)(2): with provisional credit, finish
    # within 45 calendar days of receiving the notice.
    "rege.finish": (CAL, 45, None),
    # PSD2 (Directive (EU) 2015/2366) Art. 73(1): refund no later than by the
    # end of the following business day after being notified (TARGET2 days).
    "psd2.refund": (BUS, 1, "target2"),
}


def due_date(clock, start):
    unit, n, calendar_name = CLOCKS[clock]
    if unit == BUS:
        return add_business_days(start, n, calendar_name)
    return add_calendar_days(start, n)


# ---------------------------------------------------------------------------
# 4. The cases: (clock, start, note, crosses).
#   note    -- short words; the start's weekday is prefixed automatically.
#   crosses -- holiday dates the note claims lie inside (start, due]; checked.
#   A note containing "on holiday" claims the start is a holiday of the
#   clock's calendar; checked.  Every `crosses` date must be in the clock's
#   calendar, except a Saturday Fed holiday, which must NOT be (the note then
#   says "not moved"); checked.
# ---------------------------------------------------------------------------
CASES = [
    # --- rbi.tat: T+5 calendar days ------------------------------------
    ("rbi.tat", "2026-01-28", "crosses Jan->Feb (31-day month)", []),
    ("rbi.tat", "2027-02-25", "crosses Feb 2027 end (28 days)", []),
    ("rbi.tat", "2028-02-25", "crosses Feb 2028 end (leap, 29 days)", []),
    ("rbi.tat", "2026-12-28", "crosses year end 2026->2027", []),
    ("rbi.tat", "2026-08-29", "crosses Aug->Sep (31-day Aug)", []),
    ("rbi.tat", "2027-05-30", "crosses May->Jun (31-day May)", []),
    ("rbi.tat", "2026-12-25", "calendar days ignore holidays", []),
    ("rbi.tat", "2028-12-26", "late 2028 start, ends in 2028", []),

    # --- nfs.chargeback: T+60 calendar days ----------------------------
    ("nfs.chargeback", "2026-12-31", "crosses year end and Feb 2027", []),
    ("nfs.chargeback", "2027-12-31", "crosses year end and leap Feb 2028", []),
    ("nfs.chargeback", "2027-01-01", "start on New Year, through Feb 2027", []),
    ("nfs.chargeback", "2026-11-14", "crosses Nov->Dec->Jan", []),
    ("nfs.chargeback", "2027-11-05", "crosses year end 2027->2028", []),
    ("nfs.chargeback", "2028-10-31", "late 2028 start, ends in 2028", []),

    # --- nfs.representment: chargeback + 5 calendar days ---------------
    ("nfs.representment", "2027-02-24", "crosses Feb 2027 end", []),
    ("nfs.representment", "2028-02-24", "lands on Feb 29 2028", []),
    ("nfs.representment", "2026-12-27", "crosses year end, lands on New Year", []),
    ("nfs.representment", "2026-07-31", "crosses Jul->Aug (31-day month)", []),
    ("nfs.representment", "2027-10-30", "crosses Oct->Nov (31-day Oct)", []),

    # --- nfs.pre_arbitration: representment + 30 calendar days ---------
    ("nfs.pre_arbitration", "2027-01-30", "Jan 30 start, crosses Feb 2027", []),
    ("nfs.pre_arbitration", "2028-01-30", "Jan 30 start, lands on Feb 29 2028", []),
    ("nfs.pre_arbitration", "2028-01-31", "Jan 31 start, crosses leap Feb", []),
    ("nfs.pre_arbitration", "2026-12-15", "crosses year end 2026->2027", []),
    ("nfs.pre_arbitration", "2026-03-31", "Mar 31 start, 30-day April", []),

    # --- nfs.arbitration: pre-arbitration + 30 calendar days -----------
    ("nfs.arbitration", "2027-02-01", "whole Feb 2027 (28 days)", []),
    ("nfs.arbitration", "2028-02-01", "whole Feb 2028 (29 days)", []),
    ("nfs.arbitration", "2027-12-31", "crosses year end 2027->2028", []),
    ("nfs.arbitration", "2026-10-03", "crosses 31-day Oct", []),
    ("nfs.arbitration", "2026-05-29", "crosses May->Jun (31-day May)", []),

    # --- visa.dispute: processing date + 120 calendar days -------------
    ("visa.dispute", "2026-11-01", "crosses year end and Feb 2027", []),
    ("visa.dispute", "2027-11-01", "crosses year end and leap Feb 2028", []),
    ("visa.dispute", "2027-09-02", "lands on year end 2027", []),
    ("visa.dispute", "2027-01-01", "Jan 1 start through Feb 2027", []),
    ("visa.dispute", "2028-01-01", "Jan 1 start through leap Feb 2028", []),
    ("visa.dispute", "2028-09-02", "last start that ends within 2028", []),

    # --- visa.response: dispute + 30 calendar days ---------------------
    ("visa.response", "2027-01-29", "crosses into Feb 2027", []),
    ("visa.response", "2028-01-29", "crosses into leap Feb 2028", []),
    ("visa.response", "2026-12-05", "crosses year end", []),
    ("visa.response", "2026-08-02", "crosses 31-day Aug", []),

    # --- visa.pre_arbitration: response + 30 calendar days -------------
    ("visa.pre_arbitration", "2027-02-14", "mid Feb 2027 start", []),
    ("visa.pre_arbitration", "2028-02-14", "mid leap Feb 2028 start", []),
    ("visa.pre_arbitration", "2027-12-10", "crosses year end 2027->2028", []),
    ("visa.pre_arbitration", "2026-01-31", "Jan 31 start, crosses Feb 2026", []),

    # --- visa.pre_arbitration_response: pre-arb + 30 calendar days -----
    ("visa.pre_arbitration_response", "2027-01-31", "Jan 31 start, crosses Feb 2027", []),
    ("visa.pre_arbitration_response", "2028-01-31", "Jan 31 start, crosses leap Feb 2028", []),
    ("visa.pre_arbitration_response", "2026-12-26", "crosses year end", []),
    ("visa.pre_arbitration_response", "2028-11-30", "late 2028 start, ends in 2028", []),

    # --- rege.investigate: 10 Fed business days ------------------------
    ("rege.investigate", "2026-11-20", "crosses Thanksgiving 2026", ["2026-11-26"]),
    ("rege.investigate", "2026-11-26", "on holiday (Thanksgiving 2026)", []),
    ("rege.investigate", "2026-12-19", "crosses Christmas 2026 and New Year 2027",
     ["2026-12-25", "2027-01-01"]),
    ("rege.investigate", "2026-12-27", "crosses New Year 2027", ["2027-01-01"]),
    ("rege.investigate", "2027-01-01", "on holiday (New Year 2027)", []),
    ("rege.investigate", "2026-06-13", "crosses Juneteenth 2026", ["2026-06-19"]),
    ("rege.investigate", "2026-06-29", "Jul 4 2026 is Saturday, not moved",
     ["2026-07-04"]),
    ("rege.investigate", "2027-07-02", "crosses Jul 4 2027 observed Mon Jul 5",
     ["2027-07-05"]),
    ("rege.investigate", "2027-07-05", "on holiday (Jul 4 2027 observed)", []),
    ("rege.investigate", "2027-06-14", "Juneteenth 2027 is Saturday, not moved",
     ["2027-06-19"]),
    ("rege.investigate", "2027-12-17", "Christmas 2027 is Saturday, not moved",
     ["2027-12-25"]),
    ("rege.investigate", "2027-12-24", "New Year 2028 is Saturday, not moved",
     ["2028-01-01"]),
    ("rege.investigate", "2028-11-09", "Veterans Day 2028 is Saturday, not moved, crosses Thanksgiving 2028",
     ["2028-11-11", "2028-11-23"]),
    ("rege.investigate", "2027-03-20", "Good Friday is not a Fed holiday", []),
    ("rege.investigate", "2026-09-05", "crosses Labor Day 2026", ["2026-09-07"]),
    ("rege.investigate", "2026-10-09", "crosses Columbus Day 2026",
     ["2026-10-12"]),
    ("rege.investigate", "2026-11-06", "crosses Veterans Day 2026",
     ["2026-11-11"]),
    ("rege.investigate", "2027-05-28", "crosses Memorial Day 2027", ["2027-05-31"]),
    ("rege.investigate", "2028-02-18", "crosses Washington's Birthday 2028",
     ["2028-02-21"]),
    ("rege.investigate", "2028-06-16", "crosses Juneteenth 2028 (Monday)",
     ["2028-06-19"]),
    ("rege.investigate", "2028-06-28", "crosses Jul 4 2028 (Tuesday)",
     ["2028-07-04"]),
    ("rege.investigate", "2028-12-14", "crosses Christmas 2028, ends in 2028",
     ["2028-12-25"]),
    ("rege.investigate", "2027-01-31", "weekend start, no holiday", []),

    # --- rege.finish: 45 calendar days ---------------------------------
    ("rege.finish", "2027-01-15", "crosses Feb 2027 end", []),
    ("rege.finish", "2028-01-15", "crosses leap Feb 2028", []),
    ("rege.finish", "2026-11-30", "crosses year end, holidays ignored", []),
    ("rege.finish", "2026-11-26", "start on Thanksgiving, calendar days", []),
    ("rege.finish", "2027-12-25", "crosses year end", []),
    ("rege.finish", "2028-11-13", "late 2028 start, ends in 2028", []),

    # --- psd2.refund: 1 TARGET2 business day ---------------------------
    ("psd2.refund", "2026-04-02", "crosses Good Friday/Easter Monday 2026",
     ["2026-04-03", "2026-04-06"]),
    ("psd2.refund", "2026-04-03", "on holiday (Good Friday 2026)", ["2026-04-06"]),
    ("psd2.refund", "2027-03-25", "crosses Good Friday/Easter Monday 2027",
     ["2027-03-26", "2027-03-29"]),
    ("psd2.refund", "2027-03-28", "Easter Sunday 2027, Easter Monday next",
     ["2027-03-29"]),
    ("psd2.refund", "2028-04-13", "crosses Good Friday/Easter Monday 2028",
     ["2028-04-14", "2028-04-17"]),
    ("psd2.refund", "2026-12-24", "crosses Christmas/Boxing Day 2026",
     ["2026-12-25", "2026-12-26"]),
    ("psd2.refund", "2026-12-26", "on holiday (Boxing Day 2026, weekend)", []),
    ("psd2.refund", "2026-12-31", "crosses New Year 2027", ["2027-01-01"]),
    ("psd2.refund", "2027-01-01", "on holiday (New Year 2027)", []),
    ("psd2.refund", "2027-12-24", "Christmas 2027 on weekend, no substitution",
     ["2027-12-25", "2027-12-26"]),
    ("psd2.refund", "2027-12-31", "New Year 2028 on Saturday, no substitution",
     ["2028-01-01"]),
    ("psd2.refund", "2026-04-30", "crosses Labour Day 2026", ["2026-05-01"]),
    ("psd2.refund", "2027-04-30", "Labour Day 2027 on Saturday", ["2027-05-01"]),
    ("psd2.refund", "2026-11-25", "Thanksgiving is not a TARGET2 holiday", []),
    ("psd2.refund", "2027-01-15", "MLK Day is not a TARGET2 holiday", []),
    ("psd2.refund", "2027-01-09", "weekend start", []),
    ("psd2.refund", "2027-01-10", "weekend start, plain week", []),
    ("psd2.refund", "2026-06-16", "plain weekday", []),
    ("psd2.refund", "2028-12-25", "on holiday (Christmas 2028), crosses Boxing Day",
     ["2028-12-26"]),
]


def build():
    windows = []
    for clock, start_s, note, crosses in CASES:
        assert clock in CLOCKS, clock
        unit, n, calendar_name = CLOCKS[clock]
        start = d(start_s)
        due = due_date(clock, start)
        assert FIRST_DAY <= start and due <= LAST_DAY, (clock, start, due)

        # Self-checks of the counting rule (independent of add_*).
        if unit == CAL:
            assert (due - start).days == n
        else:
            assert is_business_day(due, calendar_name)
            span = [start + dt.timedelta(days=k) for k in range(1, (due - start).days + 1)]
            assert sum(is_business_day(x, calendar_name) for x in span) == n

        # Check the claims made in the note.
        cal = CALENDARS[calendar_name] if calendar_name else None
        if "on holiday" in note:
            assert cal is not None and start in cal, (clock, start, note)
        for c in crosses:
            c = d(c)
            assert start < c <= due, (clock, start, due, "does not cross", c)
            if cal is None:
                continue
            if calendar_name == "us-federal-reserve" and c.weekday() == SAT:
                # A Saturday Fed holiday: not moved, not in the calendar, and
                # the Friday before stays a business day.
                assert "not moved" in note, (clock, start, note)
                assert c not in cal, (clock, c)
                assert is_business_day(c - dt.timedelta(days=1), calendar_name)
            else:
                assert c in cal, (clock, c, "is not a holiday of", calendar_name)

        why = "%s start; %s" % (WEEKDAY_NAMES[start.weekday()], note)
        windows.append({"clock": clock, "start": start.isoformat(),
                        "due": due.isoformat(), "why": why})
    return windows


def main():
    windows = build()
    counts = Counter(w["clock"] for w in windows)
    assert len(windows) >= 60
    for clock in CLOCKS:
        assert counts[clock] >= 4, (clock, counts[clock])
    starts_wd = Counter(d(w["start"]).weekday() for w in windows)
    assert starts_wd[FRI] and starts_wd[SAT] and starts_wd[SUN]

    table = {
        "calendars": {name: [x.isoformat() for x in sorted(days)]
                      for name, days in CALENDARS.items()},
        "windows": windows,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(table, fh, indent=2)
        fh.write("\n")

    print("wrote %s" % os.path.relpath(OUT, REPO))
    for name, days in CALENDARS.items():
        print("calendar %-20s %d dates" % (name, len(days)))
    print("windows: %d cases" % len(windows))
    for clock in CLOCKS:
        print("  %-32s %d" % (clock, counts[clock]))
    print("  start weekdays: " + ", ".join(
        "%s %d" % (WEEKDAY_NAMES[k], starts_wd[k]) for k in range(7)))


if __name__ == "__main__":
    main()
