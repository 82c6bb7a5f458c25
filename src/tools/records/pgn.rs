//! Xiangqi PGN: reading games (tags and moves in ICCS, Chinese or WXF notation) and writing them.
//!
//! Reading is lenient in the ways real files need: comments `{…}` and `;…`, variations `(…)`, NAGs `$n`,
//! move numbers `12.` and `12...`, result tokens, moves written `H2-E2`, full-width digits. Each game is its
//! tags and its move texts; the moves are checked when they are played. Writing gives what xiangqi tools
//! read: the tags as given, moves in ICCS `H2-E2` numbered from the start position, lines under 80 columns.

use super::game::GameRecord;
use crate::board::Position;
use crate::types::{Color, Move};

/// Whether a token starts with a move number (`1.`, `12...`).
fn starts_with_move_number(tok: &str) -> bool {
    let digits = tok.chars().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && tok[digits..].starts_with(['.', '…', '。'])
}

fn is_result(tok: &str) -> bool {
    matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
}

/// Strips a leading move number (`12.`, `12...`, `12…`) from a token; returns what is left.
fn strip_number(tok: &str) -> &str {
    let digits = tok.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return tok;
    }
    let rest = &tok[digits..];
    let dots = rest.chars().take_while(|&c| c == '.' || c == '…' || c == '。').count();
    if dots == 0 {
        return tok;
    }
    let skip: usize = rest.chars().take(dots).map(char::len_utf8).sum();
    &rest[skip..]
}

/// Decodes a game file's bytes, whatever the encoding the collections use: UTF-8 (with or without a BOM),
/// UTF-16 with a BOM, else GBK/GB18030 (xqbase downloads, most Chinese collections). Returns the text and the
/// encoding's name.
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
        return (text.into_owned(), enc.name());
    }
    match std::str::from_utf8(bytes) {
        Ok(t) => (t.to_string(), "UTF-8"),
        Err(_) => {
            let (text, _, _) = encoding_rs::GB18030.decode(bytes);
            (text.into_owned(), "GB18030")
        }
    }
}

/// Splits a PGN text into games. Text outside any game (before the first tag or move) is ignored.
pub fn parse(text: &str) -> Vec<GameRecord> {
    let mut games = Vec::new();
    let mut game = GameRecord::default();
    let mut in_moves = false;
    let mut depth_comment = false;
    let mut depth_var = 0u32;
    // After a game's result token, text up to the next tag section (or a move list starting again at a move
    // number) is outside any game: xqbase's footers, notes, advertising.
    let mut outside = false;
    for raw in text.lines() {
        let line = raw.trim_start_matches('\u{feff}').trim();
        if outside {
            let restarts = line.starts_with('[') || line.split_whitespace().next().is_some_and(starts_with_move_number);
            if !restarts {
                continue;
            }
            outside = false;
        }
        if !depth_comment && depth_var == 0 && line.starts_with('[') && line.ends_with(']') {
            if in_moves {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            let inner = &line[1..line.len() - 1];
            let (key, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            let value = value.trim();
            // One quote off each end (an escaped quote may end the value: `"Say \"hi\""`).
            let value = value.strip_prefix('"').unwrap_or(value);
            let value = value.strip_suffix('"').unwrap_or(value).replace("\\\"", "\"");
            game.tags.push((key.to_string(), value));
            continue;
        }
        // Move text: walk characters to drop comments and variations, then split into tokens.
        let mut clean = String::new();
        for c in line.chars() {
            if depth_comment {
                if c == '}' {
                    depth_comment = false;
                }
                continue;
            }
            match c {
                '{' => depth_comment = true,
                '(' => depth_var += 1,
                ')' => depth_var = depth_var.saturating_sub(1),
                ';' if depth_var == 0 => break,
                _ if depth_var > 0 => {}
                _ => clean.push(c),
            }
        }
        for tok in clean.split_whitespace() {
            let tok = strip_number(tok);
            // `12. ...` writes the dots apart from the number: they are no move.
            if tok.is_empty() || tok.starts_with('$') || tok.chars().all(|c| matches!(c, '.' | '…' | '。')) {
                continue;
            }
            in_moves = true;
            if is_result(tok) {
                game.result = Some(tok.to_string());
                games.push(std::mem::take(&mut game));
                in_moves = false;
                outside = true;
                break;
            }
            game.moves.push(tok.to_string());
        }
    }
    if in_moves || !game.tags.is_empty() {
        games.push(game);
    }
    games
}

/// Writes one game: `tags` in order (the caller includes `FEN` for a set-up start and `Result`), then the
/// moves from `start` in ICCS, each followed by its numeric annotation glyph `$n` when `nags` has a non-zero
/// one and by its note as a `{comment}` when it has a non-empty one, then `result`. Ends with a blank line, so
/// that games can be appended to one file.
pub fn write(
    tags: &[(&str, String)],
    start: &Position,
    moves: &[Move],
    nags: &[u8],
    notes: &[String],
    result: &str,
) -> String {
    let mut s = String::new();
    for (k, v) in tags {
        s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "\\\"")));
    }
    s.push('\n');
    let mut fullmove = start.fullmove();
    let mut black = start.side_to_move() == Color::Black;
    let mut line = String::new();
    if black && !moves.is_empty() {
        line.push_str(&format!("{fullmove}. ... "));
    }
    for (i, m) in moves.iter().enumerate() {
        if !black {
            line.push_str(&format!("{fullmove}. "));
        }
        line.push_str(&format!("{}-{}", m.from().to_string().to_uppercase(), m.to().to_string().to_uppercase()));
        if let Some(nag) = nags.get(i).filter(|&&n| n > 0) {
            line.push_str(&format!(" ${nag}"));
        }
        if let Some(note) = notes.get(i).filter(|n| !n.is_empty()) {
            line.push_str(&format!(" {{{note}}}"));
        }
        line.push(' ');
        if black {
            fullmove += 1;
        }
        black = !black;
        if line.len() > 72 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
    }
    line.push_str(result);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// Today's date as PGN writes it (`2026.12.02`, UTC).
pub fn today() -> String {
    let days =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86400) as i64;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_and_noise() {
        let text = "[Event \"Test\"]\n[FEN \"4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1\"]\n\n\
                    1. b1a1 {chase} a7b7 2. A1-B1 (2. a1a2 a7a8) b7a7 $1 ; comment\n3. 车八平九 1-0\n\n\
                    [Event \"Two\"]\n1. 炮二平五 马８进７ *\n";
        let games = parse(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("event"), Some("Test"));
        assert_eq!(games[0].moves, ["b1a1", "a7b7", "A1-B1", "b7a7", "车八平九"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert!(games[0].start().is_ok());
        assert_eq!(games[1].moves, ["炮二平五", "马８进７"]);
        assert_eq!(games[1].start().unwrap(), Position::startpos());
    }

    /// Replaying reads every notation and names the first move that is not legal, by number and text.
    #[test]
    fn replay_checks_each_move() {
        let games = parse("1. 炮二平五 h9g7 2. H0-G2 h9g7 *\n");
        let r = games[0].replay(3).unwrap();
        assert_eq!(r.start, Position::startpos());
        let expected: Vec<Move> = ["h2e2", "h9g7", "h0g2"].iter().map(|m| m.parse().unwrap()).collect();
        assert_eq!(r.moves, expected);
        let mut end = Position::startpos();
        expected.iter().for_each(|&m| end.make_move(m));
        assert_eq!(r.end, end);
        assert_eq!(games[0].replay(0).unwrap().moves, []);
        let err = games[0].replay(4).unwrap_err();
        assert!(err.starts_with("move 4 'h9g7': "), "{err}");
    }

    /// What the writer writes, the reader reads back: tags, moves (Black to move first), notes dropped.
    #[test]
    fn write_then_read() {
        let start = Position::from_fen("4k4/9/c8/9/9/9/9/9/1R7/3K5 b - - 0 7").unwrap();
        let moves: Vec<Move> = ["a7b7", "b1a1", "b7a7", "a1b1"].iter().map(|m| m.parse().unwrap()).collect();
        let notes = vec!["+0.35/12 0.245s".to_string(), String::new()];
        let tags = vec![("Event", "Say \"hi\"".to_string()), ("FEN", start.to_fen()), ("Result", "*".into())];
        let text = write(&tags, &start, &moves, &[], &notes, "*");
        assert_eq!(
            text,
            "[Event \"Say \\\"hi\\\"\"]\n[FEN \"4k4/9/c8/9/9/9/9/9/1R7/3K5 b - - 0 7\"]\n[Result \"*\"]\n\n\
             7. ... A7-B7 {+0.35/12 0.245s} 8. B1-A1 B7-A7 9. A1-B1 *\n\n"
        );
        let games = parse(&text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("Event"), Some("Say \"hi\""));
        assert_eq!(games[0].moves, ["A7-B7", "B1-A1", "B7-A7", "A1-B1"]);
        assert_eq!(games[0].start().unwrap(), start);
    }

    #[test]
    fn dates() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }

    /// An xqbase download: GBK bytes, CRLF line ends, a footer after the result that is no game.
    #[test]
    fn gbk_and_footers() {
        let text = "[Game \"Chinese Chess\"]\r\n[Result \"1-0\"]\r\n1. 炮二平五 马８进７ 2. 马二进三 1-0\r\n\
                    ======================\r\n欢迎访问《象棋百科全书网》\r\n推荐用《象棋巫师》观赏棋谱\r\n";
        let (gbk, _, _) = encoding_rs::GBK.encode(text);
        assert!(std::str::from_utf8(&gbk).is_err());
        let (decoded, name) = decode(&gbk);
        assert_eq!((decoded.as_str(), name), (text, "GB18030"));
        let games = parse(&decoded);
        assert_eq!(games.len(), 1, "{games:?}");
        assert_eq!(games[0].moves, ["炮二平五", "马８进７", "马二进三"]);
        // UTF-8 with a BOM, and UTF-16 with a BOM.
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(text.as_bytes());
        assert_eq!(decode(&bom), (text.to_string(), "UTF-8"));
        let mut utf16 = vec![0xff, 0xfe];
        utf16.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
        assert_eq!(decode(&utf16), (text.to_string(), "UTF-16LE"));
        // Two games with a footer between them: the second is found, the footer is not a game.
        let two = format!("{text}[Event \"2\"]\n1. h2e2 h9g7 *\n");
        assert_eq!(parse(&two).len(), 2);
        assert_eq!(parse(&two)[1].moves, ["h2e2", "h9g7"]);
    }

    #[test]
    fn move_numbers() {
        assert_eq!(strip_number("12."), "");
        assert_eq!(strip_number("12...h2e2"), "h2e2");
        assert_eq!(strip_number("h2e2"), "h2e2");
        assert_eq!(strip_number("1-0"), "1-0");
    }
}
