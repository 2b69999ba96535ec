// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/wordlayout.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <QGlyphRun>
#include <QPainter>
#include <QTextBoundaryFinder>
#include <QTextLayout>
#include <QTextOption>

namespace ridgeline::views {

namespace {

/** QFixed::fromReal(): 1/64 px, truncated, as QTextEngine keeps widths and places. */
int toFixed64(qreal px)
{
    return int(px * 64);
}

/** A left-to-right layout of @p text on one line that never wraps, laid out. */
void layOutUnwrapped(QTextLayout& layout)
{
    QTextOption option;
    option.setWrapMode(QTextOption::NoWrap);
    option.setTextDirection(Qt::LeftToRight); // (else every cursorToX() scans the text for its direction)
    layout.setTextOption(option);
    layout.setCacheEnabled(true);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(1e7);
    layout.endLayout();
}

constexpr QChar kKeyMark(0x0001); ///< between a unit's text and its inner break offsets in a unit's key
constexpr int kUnitsKept = 4096;  ///< the units kept before the cache is emptied (a slider's figures are new each step)

bool isFigure(QChar c)
{
    return (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || QStringView(u".,%()+-/:;*").contains(c);
}

/**
 * Calls @p piece(start, wordEnd, end) for each piece of a unit (WordLayout's Piece: a word between two line-break
 * opportunities and the spaces after it) of @p text, whose inner line-break opportunities are @p inner (offset + 1 per
 * character, the part of the unit's key after kKeyMark): characters [start, wordEnd) are the word, [wordEnd, end) its
 * spaces. Offsets in @p text.
 */
template <typename PieceFunction>
void forEachPiece(QStringView text, QStringView inner, PieceFunction piece)
{
    const int size = int(text.size());
    int start = 0;
    for (int p = 1; p <= size; ++p) {
        if (p < size && (text.at(p - 1) == QLatin1Char(' ') || !inner.contains(QChar(ushort(p + 1)))))
            continue;
        int wordEnd = p;
        while (wordEnd > start && text.at(wordEnd - 1) == QLatin1Char(' '))
            --wordEnd;
        piece(start, wordEnd, p);
        start = p;
    }
}

} // namespace

WordLayout::FontFacts& WordLayout::factsFor(const QFont& font)
{
    // By the font's description and its resolution (a device-less QFontMetricsF measures at the default one): fonts
    // equal in both have the same engines, glyphs and advances. Kept for the process (a few fonts: the titles' sizes).
    static std::unordered_map<QString, std::unique_ptr<FontFacts>> facts;
    const QString key = font.key() + QLatin1Char('@') + QString::number(QFontMetricsF(font).fontDpi());
    std::unique_ptr<FontFacts>& entry = facts[key];
    if (!entry)
        entry = std::make_unique<FontFacts>();
    return *entry;
}

WordLayout::WordLayout(const QFont& font)
    : m_font(font)
    , m_metrics(font)
    , m_minimumRightBearingFx(std::abs(toFixed64(std::min(qreal(0), m_metrics.minRightBearing()))))
    , m_facts(factsFor(font))
    , m_units(m_facts.units)
    , m_chars(m_facts.chars)
    , m_pairsApart(m_facts.pairsApart)
    , m_rawFonts(m_facts.rawFonts)
{
}

bool WordLayout::qualifies(const QString& text)
{
    for (const QChar c : text) {
        if (c == QLatin1Char(' '))
            continue;
        if (c.isSpace() || c.isSurrogate() || c == QChar::SoftHyphen || c.category() == QChar::Other_Control
            || c.category() == QChar::Other_Format)
            return false; // tabs, separators, no-break spaces, soft hyphens, bidi controls: QTextEngine's own cases
        switch (c.direction()) {
        case QChar::DirR:
        case QChar::DirAL:
        case QChar::DirAN:
        case QChar::DirNSM:
            return false;
        default:
            break;
        }
    }
    return true;
}

int WordLayout::fontIndex(const QRawFont& font)
{
    for (std::size_t i = 0; i < m_rawFonts.size(); ++i)
        if (m_rawFonts[i] == font)
            return int(i);
    m_rawFonts.push_back(font);
    return int(m_rawFonts.size()) - 1;
}

int WordLayout::negativeRightBearingFx(QChar c) const
{
    // QTextEngine's right bearing: QFontEngine::getGlyphBearings() of the glyph, which QFontMetricsF::rightBearing()
    // reads too.
    const qreal bearing = m_metrics.rightBearing(c);
    return bearing < 0 ? toFixed64(-bearing) : 0;
}

const WordLayout::CharShape& WordLayout::charShape(QChar c)
{
    const auto found = m_chars.find(c.unicode());
    if (found != m_chars.end())
        return found->second;
    QTextLayout layout(QString(c), m_font);
    layOutUnwrapped(layout);
    const QTextLine line = layout.lineAt(0);
    CharShape shape;
    const QList<QGlyphRun> runs = line.glyphRuns();
    if (runs.size() == 1 && runs.front().glyphIndexes().size() == 1) {
        shape.ok = true;
        shape.font = fontIndex(runs.front().rawFont());
        shape.glyph = runs.front().glyphIndexes().front();
        shape.xFx = toFixed64(runs.front().positions().front().x());
        shape.yFx = toFixed64(runs.front().positions().front().y() - line.ascent());
        shape.advanceFx = toFixed64(line.cursorToX(1));
        shape.negativeRightBearingFx = negativeRightBearingFx(c);
    }
    return m_chars.emplace(c.unicode(), shape).first->second;
}

int WordLayout::pairState(QChar a, QChar b) const
{
    const auto found = m_pairsApart.find((quint32(a.unicode()) << 16) | b.unicode());
    return found == m_pairsApart.end() ? -1 : found->second ? 1 : 0;
}

bool WordLayout::figuresUnit(const QString& key, Unit* unit)
{
    const QString text = key.section(kKeyMark, 0, 0);
    const QString inner = key.section(kKeyMark, 1);
    int wordEnd = int(text.size());
    while (wordEnd > 0 && text.at(wordEnd - 1) == QLatin1Char(' '))
        --wordEnd;
    if (wordEnd == 0 || (wordEnd < text.size() && !charShape(QLatin1Char(' ')).ok))
        return false;
    for (int i = 0; i < wordEnd; ++i)
        if (!isFigure(text.at(i)) || !charShape(text.at(i)).ok)
            return false;
    std::vector<int> x(std::size_t(text.size()) + 1, 0);
    for (int i = 0; i < text.size(); ++i)
        x[std::size_t(i) + 1] = x[std::size_t(i)] + charShape(text.at(i)).advanceFx;
    forEachPiece(text, inner, [&](int start, int end, int p) {
        Piece piece;
        piece.start = start;
        piece.end = p;
        piece.widthFx = x[std::size_t(end)] - x[std::size_t(start)];
        piece.spacesFx = x[std::size_t(p)] - x[std::size_t(end)];
        piece.negativeRightBearingFx = end > start ? charShape(text.at(end - 1)).negativeRightBearingFx : 0;
        for (int i = start; i < end; ++i) {
            const CharShape& c = charShape(text.at(i));
            piece.glyphFont.push_back(c.font);
            piece.glyphs.push_back(c.glyph);
            piece.glyphXFx.push_back(x[std::size_t(i)] - x[std::size_t(start)] + c.xFx);
            piece.glyphYFx.push_back(c.yFx);
        }
        unit->pieces.push_back(std::move(piece));
    });
    return true;
}

/** The neighbouring pairs of a unit's text (and its last character with a space after it, when it has one). */
static std::vector<quint32> figurePairs(const QString& text)
{
    std::vector<quint32> pairs;
    for (qsizetype i = 1; i < text.size(); ++i)
        if (text.at(i - 1) != QLatin1Char(' '))
            pairs.push_back((quint32(text.at(i - 1).unicode()) << 16) | text.at(i).unicode());
    return pairs;
}

WordLayout::FigureResult WordLayout::composeFigures(const QString& key)
{
    // Every neighbouring pair known to shape apart: composed. A pair known not to: shaped. Otherwise shaped, and its
    // pairs learnt from that shaping (shapeUnits()).
    const QString text = key.section(kKeyMark, 0, 0);
    bool unknown = false;
    for (const quint32 pair : figurePairs(text)) {
        const int state = pairState(QChar(ushort(pair >> 16)), QChar(ushort(pair & 0xffff)));
        if (state == 0)
            return FigureResult::Shape;
        unknown = unknown || state < 0;
    }
    Unit unit;
    if (!figuresUnit(key, &unit))
        return FigureResult::Shape;
    if (unknown)
        return FigureResult::ShapeAndLearn;
    ++m_unitsComposed;
    m_units.emplace(key, std::move(unit));
    return FigureResult::Composed;
}

void WordLayout::shapeUnits(const QStringList& keys)
{
    QStringList shaped;
    QStringList learn; // units of figures with a pair not yet known: shaped, and compared with their composition
    for (const QString& key : keys) {
        const FigureResult result = composeFigures(key);
        if (result != FigureResult::Composed)
            shaped << key;
        if (result == FigureResult::ShapeAndLearn)
            learn << key;
    }
    if (shaped.isEmpty())
        return;
    // The new units in one layout, a space after each that has none: shaping does not cross a space (class comment),
    // so each is shaped as in its text; one HarfBuzz call instead of one per unit.
    QString all;
    std::vector<int> starts;
    for (const QString& key : shaped) {
        const QString text = key.section(kKeyMark, 0, 0);
        starts.push_back(int(all.size()));
        all += text;
        if (!text.endsWith(QLatin1Char(' ')))
            all += QLatin1Char(' ');
    }
    QTextLayout layout(all, m_font);
    layOutUnwrapped(layout);
    ++m_shapingLayouts;
    const QTextLine line = layout.lineAt(0);
    const qreal ascent = line.ascent();
    for (qsizetype u = 0; u < shaped.size(); ++u) {
        const QString& key = shaped.at(u);
        const QString text = key.section(kKeyMark, 0, 0);
        const QString inner = key.section(kKeyMark, 1);
        const int unitStart = starts[std::size_t(u)];
        Unit unit;
        forEachPiece(text, inner, [&](int pieceStart, int pieceEnd, int piecePast) {
            // In the layout of all the new units (this unit's characters start at unitStart).
            const int start = unitStart + pieceStart, end = unitStart + pieceEnd, p = unitStart + piecePast;
            Piece piece;
            piece.start = pieceStart;
            piece.end = piecePast;
            const int startX = toFixed64(line.cursorToX(start));
            const int endX = toFixed64(line.cursorToX(end));
            piece.widthFx = endX - startX;
            piece.spacesFx = toFixed64(line.cursorToX(p)) - endX;
            if (end > start) {
                piece.negativeRightBearingFx = negativeRightBearingFx(all.at(end - 1));
                for (const QGlyphRun& run : line.glyphRuns(start, end - start)) {
                    const int font = fontIndex(run.rawFont());
                    const QList<quint32> glyphs = run.glyphIndexes();
                    const QList<QPointF> places = run.positions();
                    for (qsizetype g = 0; g < glyphs.size(); ++g) {
                        piece.glyphFont.push_back(font);
                        piece.glyphs.push_back(glyphs[g]);
                        piece.glyphXFx.push_back(toFixed64(places[g].x()) - startX);
                        piece.glyphYFx.push_back(toFixed64(places[g].y() - ascent));
                    }
                }
            }
            unit.pieces.push_back(std::move(piece));
        });
        ++m_unitsShaped;
        if (learn.contains(key)) {
            // Shaped as composed from its characters: each neighbouring pair sets its glyphs apart (no kerning pair or
            // ligature across it); else nothing is learnt and the unit is shaped whenever it is new.
            Unit composed;
            bool same = figuresUnit(key, &composed) && composed.pieces.size() == unit.pieces.size();
            for (std::size_t k = 0; same && k < unit.pieces.size(); ++k) {
                const Piece& a = unit.pieces[k];
                const Piece& b = composed.pieces[k];
                same = a.start == b.start && a.end == b.end && a.widthFx == b.widthFx && a.spacesFx == b.spacesFx
                    && a.glyphs == b.glyphs && a.glyphFont == b.glyphFont && a.glyphXFx == b.glyphXFx
                    && a.glyphYFx == b.glyphYFx;
            }
            if (same)
                for (const quint32 pair : figurePairs(text))
                    m_pairsApart.emplace(pair, true);
        }
        m_units.emplace(key, std::move(unit));
    }
}

const std::vector<WordLayout::Line>& WordLayout::layout(const QString& text, qreal widthPx)
{
    // The units and their keys: the unit's text, then (if any) the line-break opportunities inside it, which
    // QTextBoundaryFinder finds in the whole text (they may depend on what comes before the unit).
    std::vector<std::pair<int, int>> units; // (start, end) in text
    QStringList keys;
    QStringList missing;
    if (m_units.size() > std::size_t(kUnitsKept))
        m_units.clear();
    QTextBoundaryFinder finder(QTextBoundaryFinder::Line, text);
    int nextBreak = finder.toNextBoundary();
    for (int i = 0; i < text.size();) {
        int wordEnd = i;
        while (wordEnd < text.size() && text.at(wordEnd) != QLatin1Char(' '))
            ++wordEnd;
        int end = wordEnd;
        while (end < text.size() && text.at(end) == QLatin1Char(' '))
            ++end;
        QString key = text.mid(i, end - i);
        bool marked = false;
        while (nextBreak >= 0 && nextBreak < wordEnd) {
            if (nextBreak > i) {
                if (!marked)
                    key += kKeyMark;
                marked = true;
                key += QChar(ushort(nextBreak - i + 1));
            }
            nextBreak = finder.toNextBoundary();
        }
        units.emplace_back(i, end);
        if (m_units.find(key) == m_units.end() && !missing.contains(key))
            missing << key;
        keys << std::move(key);
        i = end;
    }
    shapeUnits(missing);

    // Greedy breaking as QTextLine::layout_helper() (Qt 6.4) for WordWrap: see the class comment.
    m_lines.clear();
    m_lineGlyphs.clear();
    m_lineWords.clear();
    std::vector<std::pair<int, int>> words;
    const int widthFx = toFixed64(widthPx);
    constexpr int kNotCalculated = 1; // QTextEngine's sentinel: any positive bearing
    auto negative = [](int bearing) { return bearing == kNotCalculated ? 0 : -bearing; };
    Line line;
    std::vector<PlacedGlyph> glyphs;
    bool empty = true;
    int lineFx = 0;
    int pendingSpacesFx = 0;
    int bearing = kNotCalculated;
    const Piece* last = nullptr;
    for (std::size_t u = 0; u < units.size(); ++u) {
        const Unit& unit = m_units.find(keys.at(qsizetype(u)))->second;
        for (std::size_t k = 0; k < unit.pieces.size(); ++k) {
            const Piece& piece = unit.pieces[k];
            const int widthWithFx = empty ? piece.widthFx : lineFx + pendingSpacesFx + piece.widthFx;
            const int previousBearing = bearing;
            if (widthWithFx + negative(bearing) + m_minimumRightBearingFx > widthFx)
                bearing = -piece.negativeRightBearingFx;
            if (!empty && widthWithFx + negative(bearing) > widthFx) {
                if (previousBearing != kNotCalculated)
                    bearing = previousBearing;
                else
                    bearing = pendingSpacesFx > 0 ? 0 : -last->negativeRightBearingFx;
                line.naturalWidthPx = (lineFx + negative(bearing)) / 64.0;
                m_lines.push_back(line);
                m_lineGlyphs.push_back(std::move(glyphs));
                glyphs.clear();
                m_lineWords.push_back(std::move(words));
                words.clear();
                line = Line();
                empty = true;
                lineFx = 0;
                pendingSpacesFx = 0;
                bearing = kNotCalculated;
                --k; // the piece starts the next line, laid out afresh
                continue;
            }
            if (empty)
                line.start = units[u].first + piece.start;
            const int xFx = widthWithFx - piece.widthFx;
            words.emplace_back(units[u].first + piece.start, xFx);
            for (std::size_t g = 0; g < piece.glyphs.size(); ++g)
                glyphs.push_back({piece.glyphFont[g], piece.glyphs[g], xFx + piece.glyphXFx[g], piece.glyphYFx[g]});
            empty = false;
            lineFx = widthWithFx;
            pendingSpacesFx = piece.spacesFx;
            if (piece.spacesFx > 0)
                bearing = kNotCalculated; // the spaces' glyph is the one before the next piece
            line.length = units[u].first + piece.end - line.start;
            last = &piece;
        }
    }
    if (!empty) {
        if (bearing == kNotCalculated && pendingSpacesFx == 0)
            bearing = -last->negativeRightBearingFx;
        line.naturalWidthPx = (lineFx + negative(bearing)) / 64.0;
        m_lines.push_back(line);
        m_lineGlyphs.push_back(std::move(glyphs));
        m_lineWords.push_back(std::move(words));
    }
    return m_lines;
}

qreal WordLayout::wordStartBefore(int index, int position) const
{
    int xFx = 0;
    for (const auto& [start, x] : m_lineWords.at(std::size_t(index))) {
        if (start > position)
            break;
        xFx = x;
    }
    return xFx / 64.0;
}

qreal WordLayout::wordStartAfter(int index, int position) const
{
    for (const auto& [start, x] : m_lineWords.at(std::size_t(index)))
        if (start >= position)
            return x / 64.0;
    return m_lines.at(std::size_t(index)).naturalWidthPx;
}

std::vector<std::pair<quint32, int>> WordLayout::glyphPlaces(int index) const
{
    std::vector<std::pair<quint32, int>> places;
    for (const PlacedGlyph& glyph : m_lineGlyphs.at(std::size_t(index)))
        places.emplace_back(glyph.glyph, glyph.xFx);
    return places;
}

void WordLayout::drawLine(QPainter* painter, int index, QPointF baseline) const
{
    const std::vector<PlacedGlyph>& glyphs = m_lineGlyphs.at(std::size_t(index));
    std::size_t g = 0;
    while (g < glyphs.size()) {
        std::size_t end = g;
        while (end < glyphs.size() && glyphs[end].font == glyphs[g].font)
            ++end;
        QList<quint32> indexes;
        QList<QPointF> places;
        indexes.reserve(qsizetype(end - g));
        places.reserve(qsizetype(end - g));
        for (std::size_t i = g; i < end; ++i) {
            indexes.append(glyphs[i].glyph);
            places.append(QPointF(glyphs[i].xFx / 64.0, glyphs[i].yFx / 64.0));
        }
        QGlyphRun run;
        run.setRawFont(m_rawFonts[std::size_t(glyphs[g].font)]);
        run.setGlyphIndexes(indexes);
        run.setPositions(places);
        painter->drawGlyphRun(baseline, run);
        g = end;
    }
}

} // namespace ridgeline::views
