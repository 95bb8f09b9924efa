//! SGF FF[4] game records: a writer for a [`Game`] (GTP `printsgf`, the match runner's records)
//! and a reader for the main line of a file (GTP `loadsgf`).
//!
//! The writer puts the root properties on the first line and one move node per line, so its
//! output never contains an empty line (GTP responses end at one). The reader follows the first
//! variation of every branch; it understands `SZ`, `KM`, `HA`, `AB`/`AW` (point lists included),
//! `PL` and `B`/`W` moves (`[]` and `[tt]` on boards up to 19x19 are passes).

use engine_core::{is_valid_komi, Color, Game, Geometry, Move, Point, Rules, MAX_SIZE, MIN_SIZE};
use std::fmt::Write;

/// What a record holds beyond the game itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// `PB`.
    pub black: String,
    /// `PW`.
    pub white: String,
    /// `RE`, such as `B+3.5`, `W+R`, `0`.
    pub result: Option<String>,
    /// `DT`, such as `2026-11-30` ([`today`] gives one).
    pub date: Option<String>,
    /// `RU`, such as `Chinese`.
    pub rules: Option<String>,
    /// `C` of the root node.
    pub comment: Option<String>,
    /// `C` of move `i` (index into [`Game::moves`]); missing or empty entries write no comment.
    pub move_comments: Vec<String>,
}

/// The SGF text of `game` with `info`: root properties, setup stones, then every move.
pub fn write(game: &Game, info: &GameInfo) -> String {
    let g = game.geometry();
    let mut sgf = String::new();
    let _ = write!(
        sgf,
        "(;FF[4]GM[1]CA[UTF-8]AP[tengen:{}]SZ[{}]KM[{}]",
        env!("CARGO_PKG_VERSION"),
        g.size(),
        game.komi()
    );
    if game.handicap() > 0 {
        let _ = write!(sgf, "HA[{}]", game.handicap());
    }
    let texts = [
        ("RU", info.rules.as_deref()),
        ("PB", Some(info.black.as_str())),
        ("PW", Some(info.white.as_str())),
        ("DT", info.date.as_deref()),
        ("RE", info.result.as_deref()),
        ("C", info.comment.as_deref()),
    ];
    for (id, value) in texts {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            let _ = write!(sgf, "{id}[{}]", escape(v));
        }
    }
    for (color, id) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let stones: Vec<Point> = game
            .setup()
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|&(_, p)| p)
            .collect();
        if !stones.is_empty() {
            sgf.push_str(id);
            for p in stones {
                let _ = write!(sgf, "[{}]", point_text(g, p));
            }
        }
    }
    if !game.setup().is_empty() {
        let first = game.moves().first().map_or(game.to_move(), |&(c, _)| c);
        let _ = write!(sgf, "PL[{}]", first.letter());
    }
    for (i, &(color, mv)) in game.moves().iter().enumerate() {
        let vertex = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => point_text(g, p),
        };
        let _ = write!(sgf, "\n;{}[{vertex}]", color.letter());
        if let Some(c) = info.move_comments.get(i).filter(|c| !c.is_empty()) {
            let _ = write!(sgf, "C[{}]", escape(c));
        }
    }
    sgf.push_str(")\n");
    sgf
}

/// Today's date (UTC) as SGF `DT` writes it: `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// SGF text escaping: `\` and `]` get a backslash.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch == '\\' || ch == ']' {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// SGF point: column letter then row letter, `aa` at the top left.
fn point_text(g: Geometry, p: Point) -> String {
    let (col, row) = g.coords(p);
    let letter = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", letter(col), letter(g.size() - 1 - row))
}

/// Why a file could not be read as a game. GTP answers all of them with `cannot load file`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SgfError(pub String);

fn error<T>(message: impl Into<String>) -> Result<T, SgfError> {
    Err(SgfError(message.into()))
}

/// The main line of an SGF game as `loadsgf` needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub size: usize,
    /// `KM`, when present.
    pub komi: Option<f64>,
    /// `HA`, when present.
    pub handicap: usize,
    /// `AB`/`AW` stones of the root node.
    pub setup: Vec<(Color, Point)>,
    /// `PL` of the root node.
    pub to_move: Option<Color>,
    pub moves: Vec<(Color, Move)>,
}

impl Record {
    /// The game after the first `moves` moves (all when `None`), under `rules`, with the file's
    /// komi or `default_komi`. Black setup stones matching `HA` become handicap stones.
    pub fn to_game(
        &self,
        rules: Rules,
        default_komi: f64,
        moves: Option<usize>,
    ) -> Result<Game, SgfError> {
        let komi = self.komi.unwrap_or(default_komi);
        let mut game = Game::new(self.size, rules, komi)
            .or_else(|_| error(format!("unsupported board size {}", self.size)))?;
        let black: Vec<Point> = stones_of(&self.setup, Color::Black);
        let white: Vec<Point> = stones_of(&self.setup, Color::White);
        let setup_result = if self.handicap >= 2 && white.is_empty() && black.len() == self.handicap
        {
            game.place_handicap(&black)
        } else {
            game.add_setup_stones(Color::Black, &black)
                .and_then(|()| game.add_setup_stones(Color::White, &white))
        };
        setup_result.or_else(|e| error(format!("setup stones: {e}")))?;
        if let Some(c) = self.to_move {
            game.set_first_to_move(c)
                .or_else(|e| error(format!("PL: {e}")))?;
        }
        let count = moves.unwrap_or(self.moves.len()).min(self.moves.len());
        for (i, &(c, m)) in self.moves[..count].iter().enumerate() {
            game.play(c, m)
                .or_else(|e| error(format!("move {}: {e}", i + 1)))?;
        }
        Ok(game)
    }
}

fn stones_of(setup: &[(Color, Point)], color: Color) -> Vec<Point> {
    setup
        .iter()
        .filter(|(c, _)| *c == color)
        .map(|&(_, p)| p)
        .collect()
}

/// One node: its properties in file order.
type Node = Vec<(String, Vec<String>)>;

/// Reads the main line of the first game tree in `text`.
pub fn read(text: &str) -> Result<Record, SgfError> {
    let nodes = Parser::new(text).main_line()?;
    let Some(root) = nodes.first() else {
        return error("empty game tree");
    };
    let mut record = root_properties(root)?;
    let g = Geometry::new(record.size).expect("size checked");
    for (i, node) in nodes.iter().enumerate() {
        for (id, values) in node {
            record.add_property(g, i, id, values)?;
        }
    }
    Ok(record)
}

/// The record as the root's game properties describe it (size, komi, handicap), before any
/// stone or move.
fn root_properties(root: &Node) -> Result<Record, SgfError> {
    let size = match property(root, "SZ") {
        None => 19,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
            .map_or_else(|| error(format!("unsupported size {v}")), Ok)?,
    };
    let komi = match property(root, "KM") {
        None => None,
        Some(v) => Some(
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|&k| is_valid_komi(k))
                .map_or_else(|| error(format!("bad komi {v}")), Ok)?,
        ),
    };
    let handicap = match property(root, "HA") {
        None => 0,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .map_or_else(|_| error(format!("bad handicap {v}")), Ok)?,
    };
    Ok(Record {
        size,
        komi,
        handicap,
        setup: Vec::new(),
        to_move: None,
        moves: Vec::new(),
    })
}

impl Record {
    /// Takes in property `id` of node `node` (0 the root): setup stones, the player to move,
    /// a move; other properties say nothing about the position.
    fn add_property(
        &mut self,
        g: Geometry,
        node: usize,
        id: &str,
        values: &[String],
    ) -> Result<(), SgfError> {
        let first = values.first().map_or("", String::as_str);
        match id {
            "AB" | "AW" | "AE" if node > 0 && !self.moves.is_empty() => {
                return error("setup stones after the first move");
            }
            "AB" | "AW" => {
                let color = if id == "AB" {
                    Color::Black
                } else {
                    Color::White
                };
                for v in values {
                    for p in point_list(g, v)? {
                        self.setup.push((color, p));
                    }
                }
            }
            "PL" if self.moves.is_empty() => {
                self.to_move = Some(
                    first
                        .trim()
                        .parse::<Color>()
                        .map_or_else(|()| error(format!("bad PL {first}")), Ok)?,
                );
            }
            "B" | "W" => {
                let color = if id == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                self.moves.push((color, move_value(g, first)?));
            }
            _ => {}
        }
        Ok(())
    }
}

fn property<'a>(node: &'a Node, id: &str) -> Option<&'a str> {
    node.iter()
        .find(|(i, _)| i == id)
        .and_then(|(_, values)| values.first())
        .map(String::as_str)
}

/// A move value: a point, or a pass: `[]`, `[tt]` on boards up to 19x19 (FF[3]), or the
/// point just past both edges, as Lizzie writes a pass (`[jj]` on 9x9).
fn move_value(g: Geometry, value: &str) -> Result<Move, SgfError> {
    let v = value.trim();
    let past_both_edges = [(b'a' + g.size() as u8) as char; 2]
        .iter()
        .collect::<String>();
    if v.is_empty() || (v == "tt" && g.size() <= 19) || v == past_both_edges {
        return Ok(Move::Pass);
    }
    sgf_point(g, v).map(Move::Play)
}

/// A point value or a compressed `aa:cc` rectangle.
fn point_list(g: Geometry, value: &str) -> Result<Vec<Point>, SgfError> {
    let v = value.trim();
    let Some((from, to)) = v.split_once(':') else {
        return Ok(vec![sgf_point(g, v)?]);
    };
    let (a, b) = (g.coords(sgf_point(g, from)?), g.coords(sgf_point(g, to)?));
    let mut points = Vec::new();
    for row in a.1.min(b.1)..=a.1.max(b.1) {
        for col in a.0.min(b.0)..=a.0.max(b.0) {
            points.extend(g.point(col, row));
        }
    }
    Ok(points)
}

fn sgf_point(g: Geometry, v: &str) -> Result<Point, SgfError> {
    let bytes = v.as_bytes();
    let coord = |b: u8| b.is_ascii_lowercase().then(|| (b - b'a') as usize);
    if let [c, r] = bytes {
        if let (Some(col), Some(row)) = (coord(*c), coord(*r)) {
            if row < g.size() {
                if let Some(p) = g.point(col, g.size() - 1 - row) {
                    return Ok(p);
                }
            }
        }
    }
    error(format!("bad point {v}"))
}

/// A small recursive-descent SGF parser that keeps the first variation of every tree.
struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text: text.as_bytes(),
            pos: 0,
        }
    }

    fn peek(&mut self) -> Option<u8> {
        while self.pos < self.text.len() && self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.text.get(self.pos).copied()
    }

    /// The nodes of the main line of the first game tree: `( node* tree* )` where only the
    /// first subtree of every tree continues the main line. Iterative, so no nesting depth can
    /// overflow the stack.
    fn main_line(&mut self) -> Result<Vec<Node>, SgfError> {
        while self.peek().is_some_and(|b| b != b'(') {
            self.pos += 1;
        }
        /// An open tree: whether it is on the main line, and whether a subtree was opened.
        struct Open {
            main: bool,
            had_child: bool,
        }
        let mut open: Vec<Open> = Vec::new();
        let mut nodes = Vec::new();
        loop {
            match self.peek() {
                Some(b'(') => {
                    self.pos += 1;
                    let main = match open.last_mut() {
                        None => true,
                        Some(parent) => {
                            let main = parent.main && !parent.had_child;
                            parent.had_child = true;
                            main
                        }
                    };
                    open.push(Open {
                        main,
                        had_child: false,
                    });
                }
                Some(b';') if open.last().is_some_and(|t| !t.had_child) => {
                    self.pos += 1;
                    let node = self.node()?;
                    if open.last().is_some_and(|t| t.main) {
                        nodes.push(node);
                    }
                }
                Some(b')') if !open.is_empty() => {
                    self.pos += 1;
                    open.pop();
                    if open.is_empty() {
                        return Ok(nodes);
                    }
                }
                None if open.is_empty() => return error("no game tree"),
                None => return error("unterminated game tree"),
                Some(other) => return error(format!("unexpected {:?}", other as char)),
            }
        }
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::new();
        while let Some(b) = self.peek() {
            if !b.is_ascii_alphabetic() {
                break;
            }
            // FF[3] allows lower-case letters inside identifiers (`AddBlack`): keep the capitals.
            let mut id = String::new();
            while let Some(&c) = self.text.get(self.pos) {
                if !c.is_ascii_alphabetic() {
                    break;
                }
                if c.is_ascii_uppercase() {
                    id.push(c as char);
                }
                self.pos += 1;
            }
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                values.push(self.value()?);
            }
            if values.is_empty() {
                return error(format!("property {id} without value"));
            }
            node.push((id, values));
        }
        Ok(node)
    }

    fn value(&mut self) -> Result<String, SgfError> {
        self.pos += 1; // '['
        let mut bytes = Vec::new();
        loop {
            match self.text.get(self.pos) {
                None => return error("unterminated value"),
                Some(b']') => break,
                Some(b'\\') => {
                    self.pos += 1;
                    match self.text.get(self.pos) {
                        None => return error("unterminated value"),
                        // An escaped line break is a soft break: removed.
                        Some(b'\n' | b'\r') => {}
                        Some(&c) => bytes.push(c),
                    }
                }
                Some(&c) => bytes.push(c),
            }
            self.pos += 1;
        }
        self.pos += 1; // ']'
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_9x9() -> Game {
        let mut game = Game::new(9, Rules::CHINESE, 7.5).unwrap();
        let g = game.geometry();
        for (c, v) in [
            (Color::Black, "E5"),
            (Color::White, "C3"),
            (Color::Black, "pass"),
        ] {
            game.play(c, g.parse_move(v).unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn writes_root_moves_and_comments() {
        let info = GameInfo {
            black: "tengen".into(),
            white: "GNU Go".into(),
            result: Some("W+R".into()),
            date: Some("2026-11-30".into()),
            rules: Some("Chinese".into()),
            comment: None,
            move_comments: vec!["1.2 s".into(), String::new(), "a]b\\c".into()],
        };
        let sgf = write(&game_9x9(), &info);
        assert!(sgf.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[tengen:"));
        assert!(sgf.contains("SZ[9]KM[7.5]RU[Chinese]PB[tengen]PW[GNU Go]DT[2026-11-30]RE[W+R]"));
        assert!(sgf.contains("\n;B[ee]C[1.2 s]\n;W[cg]\n;B[]C[a\\]b\\\\c])\n"));
        assert!(!sgf.contains("\n\n"));
    }

    #[test]
    fn round_trips_handicap_and_moves() {
        let mut game = Game::new(19, Rules::CHINESE, 0.5).unwrap();
        game.place_fixed_handicap(4).unwrap();
        let g = game.geometry();
        game.play(Color::White, g.parse_move("C3").unwrap())
            .unwrap();
        game.play(Color::Black, Move::Pass).unwrap();
        let sgf = write(&game, &GameInfo::default());
        assert!(sgf.contains("HA[4]"), "{sgf}");
        assert!(sgf.contains("PL[W]"), "{sgf}");
        let record = read(&sgf).unwrap();
        let back = record.to_game(Rules::CHINESE, 7.5, None).unwrap();
        assert_eq!(back.komi(), 0.5);
        assert_eq!(back.handicap(), 4);
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.board().hash(), game.board().hash());
        let before_second = record.to_game(Rules::CHINESE, 7.5, Some(1)).unwrap();
        assert_eq!(before_second.moves().len(), 1);
    }

    #[test]
    fn reads_variations_setup_lists_and_passes() {
        let text = "junk (;GM[1]FF[3]SZ[5]AddBlack[aa:bb]AW[ee]PL[w]\
                    ;W[cc]C[x\\]y](;B[tt];W[];B[ff])(;B[dd]))";
        let record = read(text).unwrap();
        assert_eq!(record.size, 5);
        assert_eq!(record.setup.len(), 5);
        assert_eq!(record.to_move, Some(Color::White));
        assert_eq!(record.moves.len(), 4);
        assert_eq!(record.moves[1], (Color::Black, Move::Pass));
        assert_eq!(record.moves[3], (Color::Black, Move::Pass), "Lizzie's pass");
        let game = record.to_game(Rules::CHINESE, 7.5, None).unwrap();
        assert_eq!(game.board().stone_count(), 6);
    }

    #[test]
    fn refuses_broken_files() {
        for bad in [
            "",
            "(;SZ[99])",
            "(;SZ[255])",
            "(;SZ[1])",
            "(;SZ[9];B[zz])",
            "(;SZ[9];B[ee]",
            "(;SZ[9]KM[abc])",
            "(;SZ[9];B[ee];W[ee])",
            "(;SZ[9];B[ee];AB[aa])",
            "(;SZ[9]C)",
            "(;SZ[9];B[ee](;W[aa]);B[bb])",
            "(x)",
        ] {
            let result = read(bad).and_then(|r| r.to_game(Rules::CHINESE, 7.5, None));
            assert!(result.is_err(), "{bad}");
        }
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 100_000;
        let mut text = "(;SZ[9]".to_string();
        text.push_str(&"(;B[]".repeat(depth));
        text.push_str(&")".repeat(depth + 1));
        assert_eq!(read(&text).unwrap().moves.len(), depth);
        assert!(read(&text[..text.len() - 1]).is_err());
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(today().len(), 10);
    }
}
