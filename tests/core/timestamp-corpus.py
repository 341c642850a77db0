#!/usr/bin/env python3
"""timestamp-corpus.py: the corpus of numbers and strings test-timestamp.c reads as times, with
what each must give computed here, independently of the C code, with Python's decimal and
datetime (the oracle), following the rules written in src/core/timestamp.h.

  python3 timestamp-corpus.py            prints the corpus (tab-separated) to stdout
  python3 timestamp-corpus.py --check F  fails unless file F is what this script prints

Columns: type (N or S), input, kind (none s ms us ns iso date), instant in microseconds since
1970-01-01T00:00:00Z, precision, the instant formatted in UTC+05:30 (the zone the C test
reads a date-time without zone in, and formats in)."""

import decimal
import random
import re
import sys
from datetime import datetime, timedelta, timezone

UTC = timezone.utc
LOCAL = timezone(timedelta(hours=5, minutes=30))
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MIN = int((datetime(1990, 1, 1, tzinfo=UTC) - EPOCH).total_seconds())
END = int((datetime(2100, 1, 1, tzinfo=UTC) - EPOCH).total_seconds())
UNITS = [('s', 1), ('ms', 1000), ('us', 10 ** 6), ('ns', 10 ** 9)]

decimal.getcontext().prec = 200


def usec_of(dt):
    delta = dt - EPOCH
    return (delta.days * 86400 + delta.seconds) * 10 ** 6 + delta.microseconds


def fmt(usec, precision, date_only):
    dt = EPOCH + timedelta(microseconds=usec)
    if date_only:
        return '%04d-%02d-%02d' % (dt.year, dt.month, dt.day)
    local = dt.astimezone(LOCAL)
    text = '%04d-%02d-%02d %02d:%02d:%02d' % (local.year, local.month, local.day, local.hour,
                                              local.minute, local.second)
    if precision > 0:
        text += '.%03d' % (local.microsecond // 1000)
    return text


NUMBER_RE = re.compile(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$')


def read_number(text):
    """(kind, usec, precision) or None, per timestamp.h's epoch rules."""
    if not NUMBER_RE.match(text):
        return None
    d = decimal.Decimal(text)
    if d == 0:
        return None
    sign, digits, exponent = d.normalize().as_tuple()
    if len(digits) > 38:  # DynamoDB refuses more than 38 significant digits
        return None
    if d < 0:
        return None
    whole = int(d)
    frac = d - whole
    n_frac = max(0, -exponent)
    for kind, per in UNITS:
        if MIN * per <= whole < END * per:
            if frac != 0 and kind != 's':
                return None
            if kind == 's':
                return kind, whole * 10 ** 6 + int(frac * 10 ** 6), min(n_frac, 9)
            if kind == 'ms':
                return kind, whole * 1000, 3
            if kind == 'us':
                return kind, whole, 6
            return kind, whole // 1000, 9
    return None


ISO_RE = re.compile(r'^(\d{4})-(\d{2})-(\d{2})'
                    r'(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?'
                    r'(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$', re.ASCII)


def read_string(text):
    """(kind, usec, precision) or None, per timestamp.h's ISO 8601 rules."""
    m = ISO_RE.match(text)
    if not m:
        return None
    year, month, day = int(m[1]), int(m[2]), int(m[3])
    try:
        datetime(year, month, day)
    except ValueError:
        return None
    if m[4] is None:
        return 'date', usec_of(datetime(year, month, day, tzinfo=UTC)), 0
    hour, minute = int(m[4]), int(m[5])
    second = int(m[6]) if m[6] is not None else 0
    if hour > 23 or minute > 59 or second > 59:
        return None
    fraction = m[7] or ''
    zone = m[8]
    if zone is None:
        tz = LOCAL
    elif zone in ('Z', 'z'):
        tz = UTC
    else:
        hh = int(zone[1:3])
        mm = int(zone[-2:]) if len(zone) > 3 else 0
        if hh > 23 or mm > 59:
            return None
        tz = timezone((-1 if zone[0] == '-' else 1) * timedelta(hours=hh, minutes=mm))
    dt = datetime(year, month, day, hour, minute, second, tzinfo=tz)
    usec = usec_of(dt) + int(fraction[:6].ljust(6, '0'))
    return 'iso', usec, min(len(fraction), 9)


def numbers():
    out = []
    for _, per in UNITS:
        for base in (MIN * per, END * per):
            out += [str(base + k) for k in (-1, 0, 1)]
    out += ['1733400000', '1.7334E9', '1.7334e+9', '17334E5', '1733400000.0', '1733400000.000',
            '0001733400000', '+1733400000', '1733400000.5', '.1733400000E10',
            '1733400000.123456789', '1733400000.1234567891234', '1733400000.999999999',
            '1733400000.1234567890123456789012345678', '1733400000.12345678901234567890123456789',
            '4102444799.999999999', '631151999.9999', '631152000.000001', '1733400000123',
            '1.733400000123E12', '1733400000123.5', '1733400000123.0', '1733400000123456',
            '1733400000123456.5', '1733400000123456789', '1.733400000123456789E18',
            '1733400000123456789.5', '12345678901234567890123456789012345678',
            '-1733400000', '-1733400000123', '0', '-0', '0.0', '1E-130', '9.99E125', '12345',
            '90210', '5551234567', '14155550123', '9223372036854775808', '9223372036854775807',
            '18446744073709551616', '1E19', '1E20', '1E10', '1E9', '7E8', '6E8', '4.1E9',
            '4.2E9', '4102444800000000000', '4102444799999999999', '1', '2026', '20261205',
            'abc', '', ' 1733400000', '1733400000 ', '1733400000s', '0x67520000', '1,733,400,000',
            'Infinity', 'NaN', '1e', '.', '1733400000.', '17334000.00E2']
    rng = random.Random(25)
    for _, per in UNITS:
        for _ in range(60):
            out.append(str(rng.randrange(MIN * per - per, END * per + per)))
    for _ in range(60):
        n = rng.randrange(1, 39)
        out.append(str(rng.randrange(10 ** (n - 1), 10 ** n)))
    for _ in range(40):
        whole = rng.randrange(MIN, END)
        frac = ''.join(rng.choice('0123456789') for _ in range(rng.randrange(1, 28)))
        out.append('%d.%s' % (whole, frac))
    return out


def strings():
    out = ['2026-12-05', '2000-02-29', '1900-02-29', '2100-02-29', '2024-02-29', '2023-02-29',
           '2026-13-01', '2026-00-10', '2026-12-00', '2026-12-32', '2026-04-31', '2026-02-30',
           '2026-04-30', '0001-01-01', '9999-12-31', '0000-01-01', '1985-03-04',
           '2026-12-05T14:03', '2026-12-05T14:03:07', '2026-12-05t14:03:07',
           '2026-12-05 14:03:07', '2026-12-05T14:03Z', '2026-12-05T14:03+02:00',
           '2000-02-29T12:00:00Z', '2100-02-28T23:59:59Z', '2100-02-29T00:00:00Z',
           '1990-01-01T00:00:00Z', '1989-12-31T23:59:59Z', '2100-01-01T00:00:00Z',
           '2026-12-05T00:00:00+14:00', '2026-12-05T00:00:00-14:00', '2026-12-05T23:59:59-12:00',
           '2026-12-05T14:03:07+0530', '2026-12-05T14:03:07-0930', '2026-12-05T14:03:07+05',
           '2026-12-05T14:03:07-03', '2026-12-05T14:03:07+23:59', '2026-12-05T14:03:07+24:00',
           '2026-12-05T14:03:07+14:60', '2026-12-05T14:03:07+00:00', '2026-12-05T14:03:07-00:00',
           '2026-12-05T14:03:07Z', '2026-12-05T14:03:07z', '2026-12-05T14:03:07,5Z',
           '12:00', '12:00:00', '2026-12-05T', '2026-12-05T14', '2026-12-05T24:00',
           '2026-12-05T24:00:00', '2026-12-05T23:60', '2026-12-05T23:59:60',
           '2026-12-05T23:59:60Z', '2026-12-05T14:03:07.', '2026-12-05T14:03:07.Z',
           '2026-12-05T14:03:07Zjunk', '2026-12-05 ', ' 2026-12-05', '20261205', '20261205T140307Z',
           '2026-W49-6', '2026-339', '2026-12', '2026', '12345', '+12025550123', '2026-12-05Z',
           '2026-12-05+01:00', '2026/12/05', '26-12-05', '2026-1-5', '2026-12-05T14:03:07+5:30',
           '2026-12-05T14:03:07+05:3', '2026-12-05T14:03:07 +05:30', '2026-12-05T14:03:07.123Z ',
           '', '\uff12\uff10\uff12\uff16-12-05', '2026-12-05T14:3:07', '2026-12-05T14:03:7',
           '2026-12-05T14:03:07+', '2026-12-05T14:03:07Z+01:00', '2026-12-05T14:03:07+0',
           '2026-12-05T14:03:07+053', '2026-12-05T14:03:07.5.5', '2026-12-05T14:03.5',
           '2026-12-05TT14:03', 'T14:03:07', '-2026-12-05', '2026-12-05T14:03:07+05:30:00',
           'hello', '1733400000', '2026-12-05T14:03:07.0Z', '2026-12-05T14:03:07.000000000Z']
    for n in range(1, 13):
        out.append('2026-12-05T14:03:07.' + '123456789012'[:n] + 'Z')
        out.append('2026-12-05T14:03:07,' + '987654321098'[:n])
    rng = random.Random(8601)
    for _ in range(150):
        year = rng.randrange(2, 9999)
        month = rng.randrange(1, 13)
        day = rng.randrange(1, 32)
        text = '%04d-%02d-%02d' % (year, month, day)
        if rng.random() < 0.8:
            text += rng.choice('Tt ') + '%02d:%02d' % (rng.randrange(24), rng.randrange(60))
            if rng.random() < 0.8:
                text += ':%02d' % rng.randrange(61)
                if rng.random() < 0.5:
                    text += rng.choice('.,') + ''.join(
                        rng.choice('0123456789') for _ in range(rng.randrange(1, 13)))
            zone = rng.choice(['', 'Z', '+hh:mm', '-hh:mm', '+hhmm', '-hh'])
            text += zone.replace('hh', '%02d' % rng.randrange(24)).replace(
                'mm', '%02d' % rng.randrange(60))
        out.append(text)
    return out


def rows():
    for typ, inputs, reader in (('N', numbers(), read_number), ('S', strings(), read_string)):
        for text in inputs:
            assert '\t' not in text and '\n' not in text
            got = reader(text)
            if got is None:
                yield '%s\t%s\tnone\t\t\t' % (typ, text)
            else:
                kind, usec, precision = got
                yield '%s\t%s\t%s\t%d\t%d\t%s' % (typ, text, kind, usec, precision,
                                                  fmt(usec, precision, kind == 'date'))


def main():
    text = ''.join(row + '\n' for row in rows())
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        with open(sys.argv[2], encoding='utf-8') as f:
            if f.read() != text:
                sys.exit('%s is not what %s computes: regenerate it' % (sys.argv[2], sys.argv[0]))
        return
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
