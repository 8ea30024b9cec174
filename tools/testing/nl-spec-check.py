#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Documentation/netlink/specs/mrc.yaml is the one description of the family's
# messages; the uapi header and the kernel's policies are written by hand.
# This checks that they say the same:
#
#  - every constant, value enum, attribute set and command of the spec has
#    the C name and value the spec gives it in include/uapi/linux/mrc.h, and
#    the header has no enum entry the spec lacks;
#  - every policy array of mrc/netlink*.c covers one attribute set, every
#    entry has the spec's type and checks (min, max, max-len, exact-len) and
#    nests the array of the set the spec nests;
#  - the family policy accepts exactly the top-level attributes some
#    operation's request names.
#
#   nl-spec-check.py [tree]    exit 0 when they agree, 1 listing differences
import os
import re
import sys

import yaml

tree = sys.argv[1] if len(sys.argv) > 1 else \
    os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
errors = []


def err(msg):
    errors.append(msg)


def cname(*parts):
    """C name of a spec name: the parts joined, "-" as "_", upper case."""
    out = ''
    for p in parts:
        if out and not out.endswith('-'):
            out += '-'
        out += p
    return out.replace('-', '_').upper()


# ---- C: #defines and enums -------------------------------------------------

def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


defines = {'IFNAMSIZ': '16', 'INT_MAX': '2147483647', 'U8_MAX': '255',
           'U16_MAX': '65535', 'U32_MAX': '4294967295',
           'SZ_1M': '1048576', 'SZ_1G': '1073741824'}
enums = {}      # enum name -> [(entry, value)]
values = {}     # every C enum entry -> value


def read_c(path):
    text = strip_comments(open(path).read())
    text = text.replace('\\\n', ' ')
    for m in re.finditer(r'^\s*#define\s+(\w+)[ \t]+([^\n]+)$', text, re.M):
        defines.setdefault(m.group(1), m.group(2).strip())
    return text


def evaluate(expr):
    """Value of a C constant expression made of numbers and known names."""
    for _ in range(20):
        new = re.sub(r'\b[A-Za-z_]\w*\b', lambda m: str(values[m.group(0)])
                     if m.group(0) in values else
                     '(%s)' % defines[m.group(0)] if m.group(0) in defines
                     else m.group(0), expr)
        if new == expr:
            break
        expr = new
    expr = re.sub(r'sizeof\s*\(\s*struct\s+in6_addr\s*\)', '16', expr)
    expr = re.sub(r'(?<=\d)[UuLl]+\b', '', expr)
    if re.search(r'[A-Za-z_]', expr):
        raise ValueError(expr)
    return int(eval(expr, {'__builtins__': {}}))  # numbers and operators only


def read_enums(text):
    for m in re.finditer(r'enum\s+(\w+)\s*\{(.*?)\}', text, re.S):
        entries, nxt = [], 0
        for item in m.group(2).split(','):
            item = item.strip()
            if not item:
                continue
            name, _, val = item.partition('=')
            name = name.strip()
            nxt = evaluate(val) if val.strip() else nxt
            entries.append((name, nxt))
            values[name] = nxt
            nxt += 1
        enums[m.group(1)] = entries


uapi = os.path.join(tree, 'include', 'uapi', 'linux', 'mrc.h')
read_enums(read_c(uapi))
uapi_defines = dict(defines)
for hdr in ('param.h', 'ev.h'):
    read_c(os.path.join(tree, 'mrc', hdr))

spec = yaml.safe_load(open(os.path.join(tree, 'Documentation', 'netlink',
                                        'specs', 'mrc.yaml')))
prefix = cname(spec['name'])

# ---- spec against the header ----------------------------------------------

spec_names = set()      # every C enum entry the spec accounts for


def expect(name, value, what):
    spec_names.add(name)
    if name in values:
        have = values[name]
    elif name in uapi_defines:
        have = evaluate(uapi_defines[name])
    else:
        err('%s: %s is not in the uapi header' % (what, name))
        return
    if have != value:
        err('%s: %s is %d in the header, %d in the spec' %
            (what, name, have, value))


for d in spec.get('definitions', []):
    if d['type'] == 'const':
        expect(cname(prefix, d['name']), d['value'], 'const')
        continue
    ename = prefix + '_' + cname(d['name'])
    n = 0
    for e in d['entries']:
        if isinstance(e, dict):
            n = e.get('value', n)
            e = e['name']
        if d['type'] == 'flags':
            # the header defines the bits: MRC_EV_EVENT_GOOD = 1U << 0
            expect(cname(ename, e), 1 << n, d['name'])
        else:
            expect(cname(ename, e), n, d['name'])
        n += 1

sets = {}               # set name -> {attr name: (C name, spec attr)}
by_cname = {}           # C name -> set name
for s in spec['attribute-sets']:
    attrs, n = {}, 0
    for a in s['attributes']:
        n = a.get('value', n)
        c = cname(s['name-prefix'], a['name'])
        expect(c, n, 'attribute-set ' + s['name'])
        attrs[a['name']] = (c, a)
        by_cname[c] = s['name']
        n += 1
    sets[s['name']] = attrs

ops = spec['operations']
n = 0
for op in ops['list']:
    n = op.get('value', n)
    expect(cname(ops['name-prefix'], op['name']), n, 'operations')
    n += 1

for ename, entries in enums.items():
    for name, _ in entries:
        if not name.startswith('__') and name not in spec_names:
            err('enum %s: %s is not in the spec' % (ename, name))

# ---- spec against the policies ---------------------------------------------

policies = {}           # array name -> {C attr name: entry text}
for path in sorted(os.listdir(os.path.join(tree, 'mrc'))):
    if not re.match(r'netlink.*\.c$', path):
        continue
    text = read_c(os.path.join(tree, 'mrc', path))
    for m in re.finditer(r'struct\s+netlink_range_validation\s+(\w+)\s*='
                         r'\s*\{(.*?)\};', text, re.S):
        body = m.group(2)
        defines['%s.min' % m.group(1)] = re.search(
            r'\.min\s*=\s*([^,}]+)', body).group(1)
        defines['%s.max' % m.group(1)] = re.search(
            r'\.max\s*=\s*([^,}]+)', body).group(1)
    for m in re.finditer(r'struct\s+nla_policy\s+(\w+)\s*\[[^\]]*\]\s*='
                         r'\s*\{(.*?)\n\};', text, re.S):
        if m.group(1) in policies:
            err('policy %s is defined twice' % m.group(1))
        entries = {}
        for e in re.finditer(r'\[(\w+)\]\s*=\s*(.*?)(?=,\s*\[|,?\s*$)',
                             m.group(2), re.S):
            entries[e.group(1)] = ' '.join(e.group(2).split())
        policies[m.group(1)] = entries

TYPES = {'NLA_U8': 'u8', 'NLA_U16': 'u16', 'NLA_U32': 'u32',
         'NLA_U64': 'u64', 'NLA_NUL_STRING': 'string'}


def policy_checks(text):
    """(spec type, checks, nested array) an nla_policy entry amounts to."""
    def val(x):
        return evaluate(x.strip())

    def rng(name, key):
        return evaluate(defines['%s.%s' % (name, key)])
    m = re.match(r'NLA_POLICY_(MAX|MIN)\((\w+),\s*(.+)\)$', text)
    if m:
        return TYPES[m.group(2)], {m.group(1).lower(): val(m.group(3))}, None
    m = re.match(r'NLA_POLICY_RANGE\((\w+),\s*([^,]+),\s*(.+)\)$', text)
    if m:
        return TYPES[m.group(1)], {'min': val(m.group(2)),
                                   'max': val(m.group(3))}, None
    m = re.match(r'NLA_POLICY_FULL_RANGE\((\w+),\s*&(\w+)\)$', text)
    if m:
        return TYPES[m.group(1)], {'min': rng(m.group(2), 'min'),
                                   'max': rng(m.group(2), 'max')}, None
    m = re.match(r'NLA_POLICY_MASK\((\w+),\s*(.+)\)$', text)
    if m:
        return TYPES[m.group(1)], {'mask': val(m.group(2))}, None
    m = re.match(r'NLA_POLICY_NESTED\((\w+)\)$', text)
    if m:
        return 'nest', {}, m.group(1)
    m = re.match(r'NLA_POLICY_EXACT_LEN\((.+)\)$', text)
    if m:
        return 'binary', {'exact-len': val(m.group(1))}, None
    m = re.match(r'\{\s*\.type\s*=\s*(\w+)\s*(?:,\s*\.len\s*=\s*(.+?))?\s*\}$',
                 text)
    if m:
        checks = {'max-len': val(m.group(2))} if m.group(2) else {}
        return TYPES[m.group(1)], checks, None
    raise ValueError(text)


policy_set = {}         # array name -> attribute set it covers
for pname, entries in policies.items():
    owners = {by_cname.get(c) for c in entries}
    if None in owners or len(owners) != 1:
        err('policy %s: entries of no or several spec sets: %s' %
            (pname, ', '.join(sorted(c for c in entries
                                     if by_cname.get(c) is None) or
                          sorted(str(o) for o in owners))))
        continue
    policy_set[pname] = owners.pop()

for pname, entries in policies.items():
    sname = policy_set.get(pname)
    if not sname:
        continue
    attrs = {c: a for c, a in sets[sname].values()}
    for c, text in entries.items():
        a = attrs[c]
        try:
            typ, checks, nested = policy_checks(text)
        except (ValueError, KeyError) as e:
            err('policy %s: %s: cannot read "%s" (%s)' % (pname, c, text, e))
            continue
        if typ != a['type']:
            err('policy %s: %s is %s, the spec says %s' %
                (pname, c, typ, a['type']))
        want = dict(a.get('checks', {}))
        if a.get('enum') and not a.get('enum-as-flags') and 'max' not in want:
            # a value enum bounds the attribute, as YNL's policies do
            enum = next(d for d in spec['definitions']
                        if d['name'] == a['enum'])
            want['max'] = len(enum['entries']) - 1
        if 'mask' in checks:
            # NLA_POLICY_MASK: the spec says which flags enum, as flags
            enum = next(d for d in spec['definitions']
                        if d['name'] == a.get('enum'))
            bits = 0
            for e in enum['entries']:
                bits |= 1 << e['value']
            if not a.get('enum-as-flags') or bits != checks['mask']:
                err('policy %s: %s masks %#x, the spec allows %#x' %
                    (pname, c, checks['mask'], bits))
            continue
        # a bound the type implies anyway is not a check
        if checks.get('min') == 0 and 'min' not in want:
            del checks['min']
        if checks != want:
            err('policy %s: %s checks %s, the spec says %s' %
                (pname, c, checks, want))
        if nested:
            got = policy_set.get(nested)
            if got != a.get('nested-attributes'):
                err('policy %s: %s nests %s (set %s), the spec set %s' %
                    (pname, c, nested, got, a.get('nested-attributes')))

requested = set()
for op in ops['list']:
    for kind in ('do', 'dump'):
        req = (op.get(kind) or {}).get('request') or {}
        for name in req.get('attributes', []):
            requested.add(sets[op['attribute-set']][name][0])
family = policies.get('mrc_policy', {})
for c in sorted(requested - set(family)):
    err('mrc_policy: %s is in a request of the spec but not in the policy' % c)
for c in sorted(set(family) - requested):
    err('mrc_policy: %s is in the policy but in no request of the spec' % c)

for e in errors:
    print('nl-spec-check: ' + e)
if errors:
    sys.exit(1)
print('nl-spec-check: spec, uapi header and %d policies agree' %
      len(policies))
