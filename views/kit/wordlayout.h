// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <unordered_map>
#include <utility>
#include <vector>

#include <QFont>
#include <QFontMetricsF>
#include <QPointF>
#include <QRawFont>
#include <QString>
#include <QStringList>

class QPainter;

namespace ridgeline::views {

/**
 * One paragraph of plain text in one font, broken into lines and placed glyph by glyph as QTextLayout does with
 * QTextOption::WordWrap, left to right, but from words shaped once and kept (issue 16, thirtieth stop in
 * docs/performance.md, h16ax): a plot title's takeaway changes a few figures a step, and QTextLayout shapes the whole
 * paragraph again with HarfBuzz for each new text.
 *
 * The text is cut into units, each a run of non-space characters and the spaces after it. A unit is shaped
 * (QTextLayout, so HarfBuzz with the font's kerning and ligatures) the first time it is seen, several new units in one
 * layout with a space between each, and kept: glyph indexes, their places in 1/64 px (QFixed, as QTextEngine keeps
 * them) and the advance at each line-break opportunity inside it. A unit made only of figures (digits and ". , % ( ) +
 * - / : ; *") is composed from its characters without a layout when each pair of neighbouring characters in it was
 * seen to set its glyphs apart (no kerning pair, no ligature): learnt from a unit that, shaped, came out exactly as its
 * characters composed (until then such units are shaped, with the others). The lines are then broken greedily at the
 * text's line-break opportunities (QTextBoundaryFinder::Line, and after each run of spaces) with the rules of Qt 6.4's
 * QTextLine::layout_helper(): a word goes to the next line when the line's width, the spaces before it, its own width
 * and, near the edge (within the font's minRightBearing()), its last glyph's negative right bearing exceed the line
 * width; trailing spaces are not counted; a line's natural width adds its last glyph's negative right bearing (none
 * after trailing spaces). Glyph places are sums of advances in 1/64 px, so a line drawn with drawLine() sets the same
 * glyphs on the same pixels as QTextLine::draw().
 *
 * This relies on shaping being local to a unit: no kerning pair or ligature crosses a space. That holds for the fonts
 * the titles use (DejaVu Sans, book and bold, 9 to 13.5 pt) and is checked by tst_floorplot against QTextLayout over
 * the titles' texts; with a font that kerns across a space the lines would be set a little differently from
 * QTextLayout. qualifies() rules out what QTextEngine treats apart: bidi, tabs, soft hyphens, no-break spaces,
 * separators and control characters.
 */
class WordLayout {
public:
    /** A laid-out line: its characters in the text and its natural width (px, QTextLine::naturalTextWidth()). */
    struct Line {
        int start = 0;
        int length = 0; ///< with its trailing spaces, as QTextLine::textLength()
        qreal naturalWidthPx = 0;
    };

    /** A layout of texts in @p font (at the default resolution, as a QTextLayout without a paint device). */
    explicit WordLayout(const QFont& font);

    /** The font given at construction. */
    const QFont& font() const { return m_font; }

    /** True when @p text is set by this class as by QTextLayout (see the class comment). */
    static bool qualifies(const QString& text);

    /** Lays @p text (qualifies()) out in lines @p widthPx wide; returns them, valid until the next call. */
    const std::vector<Line>& layout(const QString& text, qreal widthPx);

    /** Draws line @p index of the last layout() with the left end of its baseline at @p baseline, in the painter's
     *  pen, as QTextLine::draw() does for a line at that place (a QGlyphRun per font, left to right). */
    void drawLine(QPainter* painter, int index, QPointF baseline) const;

    /** The glyphs of line @p index of the last layout() with their x (1/64 px from the line's start), left to right,
     *  spaces left out (a space draws no pixel): for tests against QTextLayout. */
    std::vector<std::pair<quint32, int>> glyphPlaces(int index) const;

    /** Where in line @p index of the last layout() the word holding text position @p position starts (px from the
     *  line's start; the line's start for a position before it): no glyph of that word or after it is left of it. */
    qreal wordStartBefore(int index, int position) const;
    /** Where in line @p index the first word starting at or after text position @p position starts (px), or the line's
     *  natural width when none does: no glyph of the characters before @p position reaches right of it but by its right
     *  bearing. */
    qreal wordStartAfter(int index, int position) const;

    /** The font's ascent (px), the distance from a line's top to its baseline in a QTextLayout of this font. */
    qreal ascentPx() const { return m_metrics.ascent(); }

    /** Units shaped with a layout by this object (each once in its font: the units are shared by the layouts of a
     *  font): for tests. */
    int unitsShaped() const { return m_unitsShaped; }
    /** Units of figures composed from their characters without a layout: for tests. */
    int unitsComposed() const { return m_unitsComposed; }
    /** QTextLayouts made for new units (several units share one): for tests. */
    int shapingLayouts() const { return m_shapingLayouts; }

private:
    /** A word between two line-break opportunities inside a unit, with the spaces after it. */
    struct Piece {
        int start = 0;       ///< first character, in the unit
        int end = 0;         ///< after its trailing spaces
        int widthFx = 0;     ///< advance without the trailing spaces (1/64 px)
        int spacesFx = 0;    ///< advance of the trailing spaces (1/64 px)
        int negativeRightBearingFx = 0; ///< of its last non-space glyph, >= 0 (1/64 px)
        std::vector<int> glyphFont; ///< index into m_rawFonts per glyph
        std::vector<quint32> glyphs;
        std::vector<int> glyphXFx; ///< from the piece's start (1/64 px)
        std::vector<int> glyphYFx; ///< from the baseline (1/64 px)
    };
    struct Unit {
        std::vector<Piece> pieces;
    };
    /** One character shaped alone (ok false when it is not one glyph). */
    struct CharShape {
        bool ok = false;
        int font = 0;
        quint32 glyph = 0;
        int xFx = 0;
        int yFx = 0;
        int advanceFx = 0;
        int negativeRightBearingFx = 0;
    };
    struct PlacedGlyph {
        int font;
        quint32 glyph;
        int xFx;
        int yFx;
    };

    void shapeUnits(const QStringList& keys);
    enum class FigureResult { Composed, Shape, ShapeAndLearn };
    FigureResult composeFigures(const QString& key);
    bool figuresUnit(const QString& key, Unit* unit);
    /** 1 when characters @p a then @p b were seen to shape apart, 0 when not, -1 when not known yet. */
    int pairState(QChar a, QChar b) const;
    const CharShape& charShape(QChar c);
    int fontIndex(const QRawFont& font);
    int negativeRightBearingFx(QChar c) const;

    /** What is known of units, single characters and pairs in one font, shared by the layouts of that font (a unit is
     *  shaped and a check made once per font, not once per title). */
    struct FontFacts {
        std::unordered_map<QString, Unit> units; ///< by text, then U+0001 and the inner break offsets (+1) if any
        std::unordered_map<ushort, CharShape> chars;
        std::unordered_map<quint32, bool> pairsApart;
        std::vector<QRawFont> rawFonts;
    };
    static FontFacts& factsFor(const QFont& font);

    QFont m_font;
    QFontMetricsF m_metrics;
    int m_minimumRightBearingFx = 0; ///< |QFontMetricsF::minRightBearing()| (1/64 px)
    FontFacts& m_facts;
    std::unordered_map<QString, Unit>& m_units;
    std::unordered_map<ushort, CharShape>& m_chars;
    std::unordered_map<quint32, bool>& m_pairsApart;
    std::vector<QRawFont>& m_rawFonts;
    std::vector<Line> m_lines;
    std::vector<std::vector<PlacedGlyph>> m_lineGlyphs;
    /** Per line: (first character in the text, x in 1/64 px) of each word. */
    std::vector<std::vector<std::pair<int, int>>> m_lineWords;
    int m_unitsShaped = 0;
    int m_unitsComposed = 0;
    int m_shapingLayouts = 0;
};

} // namespace ridgeline::views
