# -*- coding: utf-8 -*-
"""Corners of the tokenizer and the parser."""
x = 0x_FF + 0o17 + 0b1010 + 1_000_000 + 1.5e-3 + .5 + 5. + 3j + 1_0.0_1e1_0J
s = r'\d+' + R"raw" + b'bytes'.decode() + rb'\x00'.decode() + Br"x".decode() + u'unicode'
t = '''triple
quoted''' + """with "quotes" inside"""
f1 = f"{x!r:>{width}} and {s}" + F'{t=}' + rf'{x}\n' + fR"{y}"
joined = ("a" "b"
          'c')
total = (1 +
         2) \
    + 3
values = [*range(3), *[4, 5]]
merged = {**{"a": 1}, 'b': 2}
first, *rest = values
a = b = c = None
matrix[1:2, ::3, ...] = 0
x: int = 5
(y): "str" = 'y'
obj.attr: list[int]
counter += 1; counter //= 2; counter **= 2; counter @= m; counter >>= 1
print(*values, sep=", ", **opts)
result = func(a)(b)(c=1)[0].method(d=[1, 2], e={"k": (1,)}, f=None, g=True, h=-1, i=...)
gen = sum(x for x in range(10))
cond = a if b else c if d else e
nested = lambda: (yield)
global_names = not a and b or c in d and e not in f and g is not h and i is j
é = 'accented names are identifiers'
名前 = "名前"
def deco(f): return f
@deco
@deco.attr(arg=1)
class K(Base, metaclass=Meta, **kw):
    """A class."""
    field: int = 0
    def method(self, a, /, b, *, c=1, **d) -> None:
        global g
        nonlocal_ = 1
        assert a, "message"
        while True:
            break
        else:
            pass
        for i, (j, k) in enumerate(pairs):
            continue
        with open("f") as f, open("g") as (h, i):
            pass
        with (open("a") as a, open("b") as b,):
            pass
        try:
            pass
        except (ValueError, TypeError) as e:
            raise
        except Exception:
            pass
        else:
            pass
        finally:
            return d
match = {"match": 1}
match["match"] = case = 2
match(x, y=1)
print(match, case)
def gen2():
    x = yield from other()
    y = yield 1, 2
    await_ = 3
