#!/usr/bin/env python3
"""Reads a Go board from a screenshot, for the real-GUI tests (standard library only).

  board_image.py grid SHOT.png SIZE
      finds the board's grid: prints "X0 Y0 STEP", the pixel of the top-left intersection
      (column A, top row) and the distance between lines.
  board_image.py stones SHOT.png SIZE X0 Y0 STEP
      prints the stones on the intersections: "black: C3 D4" and "white: E5" (GTP vertices,
      sorted as gtp_log.py sorts them). A stone is two of four samples off the centre that
      are dark, or bright and grey (so glossy, shaded stones count).

The board is found as the largest wood-coloured area; its grid lines as the longest dark runs
inside it, which stones and analysis marks are too short to match.
"""
import subprocess
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def load(path):
    """The image as (width, height, rows of (r, g, b) tuples), through ImageMagick's PPM."""
    raw = subprocess.run(["convert", path, "-depth", "8", "ppm:-"], check=True,
                         capture_output=True).stdout
    fields, pos = [], 0
    while len(fields) < 4:
        while raw[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not raw[end:end + 1].isspace():
            end += 1
        fields.append(raw[pos:end])
        pos = end
    width, height = int(fields[1]), int(fields[2])
    data = raw[pos + 1:]
    rows = [[tuple(data[(y * width + x) * 3:(y * width + x) * 3 + 3]) for x in range(width)]
            for y in range(height)]
    return width, height, rows


def is_wood(p):
    r, g, b = p
    return r > 150 and 90 < g < 230 and b < 170 and r - b > 50


def is_dark(p):
    return sum(p) < 150


def wood_box(width, height, rows):
    """The bounding box of the rows and columns that are mostly wood."""
    ys = [y for y in range(height) if sum(is_wood(p) for p in rows[y]) > width // 4]
    if not ys:
        sys.exit("no board in the picture")
    top, bottom = min(ys), max(ys)
    xs = [x for x in range(width)
          if sum(is_wood(rows[y][x]) for y in range(top, bottom + 1, 4)) > (bottom - top) // 16]
    return min(xs), top, max(xs), bottom


def longest_run(pixels):
    best = run = 0
    for p in pixels:
        run = run + 1 if is_dark(p) else 0
        best = max(best, run)
    return best


def line_centres(runs, size):
    """The first and last grid line: the outermost groups of consecutive indices whose run is
    near the longest (inner lines may be hidden by stones or analysis marks); every other group
    found must lie on the grid they span."""
    longest = max(runs.values())
    hits = sorted(i for i, r in runs.items() if r >= 0.8 * longest)
    groups, current = [], [hits[0]]
    for i in hits[1:]:
        if i - current[-1] <= 2:
            current.append(i)
        else:
            groups.append(current)
            current = [i]
    groups.append(current)
    centres = [sum(g) / len(g) for g in groups]
    first, last = centres[0], centres[-1]
    step = (last - first) / (size - 1)
    if step < 4 or any(abs((c - first) / step - round((c - first) / step)) > 0.15 for c in centres):
        sys.exit(f"no {size}x{size} grid: lines at {[round(c) for c in centres]}")
    return first, last


def grid(path, size):
    width, height, rows = load(path)
    left, top, right, bottom = wood_box(width, height, rows)
    row_runs = {y: longest_run(rows[y][left:right + 1]) for y in range(top, bottom + 1)}
    col_runs = {x: longest_run([rows[y][x] for y in range(top, bottom + 1)])
                for x in range(left, right + 1)}
    (y0, y1), (x0, x1) = line_centres(row_runs, size), line_centres(col_runs, size)
    step = ((x1 - x0) + (y1 - y0)) / (2 * (size - 1))
    return round(x0), round(y0), step


def stones(path, size, x0, y0, step):
    _, _, rows = load(path)
    found = {"black": [], "white": []}
    reach = max(2, int(step * 0.3))
    for row in range(size):
        for col in range(size):
            x, y = round(x0 + col * step), round(y0 + row * step)
            # Four samples off the centre, clear of move numbers and of the grid lines.
            samples = [rows[y + dy][x + dx] for dx, dy in
                       ((reach, reach), (-reach, reach), (reach, -reach), (-reach, -reach))]
            # The two middle samples by brightness: shading or a mark may spoil the others.
            middle = sorted(samples, key=sum)[1:3]
            brightness = [sum(p) / 3 for p in middle]
            spread = max(max(p) - min(p) for p in middle)
            vertex = f"{COLUMNS[col]}{size - row}"
            if max(brightness) < 90:
                found["black"].append(vertex)
            elif min(brightness) > 175 and spread < 40:
                found["white"].append(vertex)
    return found


def main():
    command, path, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if command == "grid":
        x0, y0, step = grid(path, size)
        print(f"{x0} {y0} {step:.2f}")
    elif command == "stones":
        x0, y0, step = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
        for color, vertices in stones(path, size, x0, y0, step).items():
            print(" ".join([f"{color}:"] + sorted(vertices)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
