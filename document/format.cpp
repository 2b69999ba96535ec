// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/format.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <QLocale>

namespace ridgeline::views::format {

namespace {

const QLocale& locale()
{
    // English digits and a comma separator everywhere, matching the docs and the text report.
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english;
}

const QString kDash = QStringLiteral("\u2013");

/** "1.23E-10" (the English locale's 'g') as the formulas write it, "1.23e-10"; "1E+07" as "1e7". Text without an
 *  exponent is returned as it is. */
QString tidyExponent(QString text)
{
    text = text.toLower();
    const qsizetype e = text.indexOf(QLatin1Char('e'));
    if (e < 0)
        return text;
    QString exponent = text.mid(e + 1);
    const bool negative = exponent.startsWith(QLatin1Char('-'));
    exponent.remove(QLatin1Char('+')).remove(QLatin1Char('-'));
    while (exponent.size() > 1 && exponent.startsWith(QLatin1Char('0')))
        exponent.remove(0, 1);
    return text.left(e + 1) + (negative ? QStringLiteral("-") : QString()) + exponent;
}

} // namespace

QString number(double value, int significant)
{
    if (!std::isfinite(value))
        return kDash;
    if (value == 0.0)
        return QStringLiteral("0");
    const double magnitude = std::abs(value);
    if (magnitude >= std::pow(10.0, significant))
        return integer(value);
    int decimals = significant - 1 - int(std::floor(std::log10(magnitude)));
    if (decimals > 9) {
        // Below what nine decimals show (1.2e-10 read "0.000000000 tok/s" at B = 1e9: h14k): the significant digits
        // with an exponent, as the formulas write them ("1.2e-10").
        return tidyExponent(locale().toString(value, 'g', significant));
    }
    decimals = std::max(decimals, 0);
    // Rounding can carry into one more digit (9.996 -> 10.00): recompute the decimals.
    const double rounded = std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
    if (rounded != 0.0) {
        const int again = std::clamp(significant - 1 - int(std::floor(std::log10(std::abs(rounded)))), 0, 9);
        decimals = std::min(decimals, again);
    }
    return locale().toString(value, 'f', decimals);
}

QString integer(double value)
{
    if (!std::isfinite(value))
        return kDash;
    return locale().toString(std::round(value), 'f', 0);
}

QString approximate(double value, int significant)
{
    if (!std::isfinite(value) || value == 0.0)
        return number(value, significant);
    const int magnitude = int(std::floor(std::log10(std::abs(value))));
    if (magnitude < significant)
        return number(value, significant);
    const double scale = std::pow(10.0, magnitude + 1 - significant);
    return integer(std::round(value / scale) * scale);
}

QString plain(double value)
{
    if (!std::isfinite(value))
        return kDash;
    return tidyExponent(locale().toString(value, 'g', 6)); // "1e7 req/s", not "1E+07" (adversarial trial, stop 32)
}

QString milliseconds(double ms)
{
    return number(ms) + QStringLiteral(" ms");
}

QString duration(double seconds)
{
    if (std::isfinite(seconds) && std::abs(seconds) >= 1.0)
        return number(seconds) + QStringLiteral(" s");
    return milliseconds(seconds * 1e3);
}

QString gigabytes(double bytes)
{
    // From 10,000 GB on, the next decimal unit, so that an extreme scenario reads "268 PB", not "268,435,456 GB"
    // (trials, stop 31: the KV-share note, the numbers panel, the KV-fit plot). Below that, GB as always.
    static const char* const kUnits[] = {" GB", " TB", " PB", " EB", " ZB", " YB"};
    double value = bytes / 1e9;
    int unit = 0;
    while (unit + 1 < int(std::size(kUnits)) && std::isfinite(value) && std::abs(value) >= 1e4) {
        value /= 1e3;
        ++unit;
    }
    return number(value) + QLatin1String(kUnits[unit]);
}

QString gibibytes(double bytes)
{
    return number(bytes / (1024.0 * 1024.0 * 1024.0)) + QStringLiteral(" GiB");
}

QString kibibytesPerToken(double bytes)
{
    return number(bytes / 1024.0) + QStringLiteral(" KiB/token");
}

QString tokensPerSecond(double tokensPerSecond)
{
    return number(tokensPerSecond) + QStringLiteral(" tok/s");
}

QString teraflop(double flop)
{
    return number(flop / 1e12) + QStringLiteral(" TFLOP");
}

QString teraflopsPerSecond(double flopsPerSecond)
{
    return number(flopsPerSecond / 1e12) + QStringLiteral(" TFLOP/s");
}

QString terabytesPerSecond(double bytesPerSecond)
{
    return number(bytesPerSecond / 1e12) + QStringLiteral(" TB/s");
}

QString flopPerByte(double intensity)
{
    return number(intensity) + QStringLiteral(" FLOP/byte");
}

QString percent(double fraction)
{
    if (!std::isfinite(fraction))
        return kDash;
    const double pct = fraction * 100.0;
    if (std::abs(pct) >= 1.0 || pct == 0.0)
        return locale().toString(pct, 'f', 1) + QStringLiteral(" %");
    return number(pct, 2) + QStringLiteral(" %");
}

QString tokens(double count)
{
    return integer(count) + QStringLiteral(" tokens");
}

QString billionParams(double params)
{
    return number(params / 1e9) + QStringLiteral(" B");
}

} // namespace ridgeline::views::format

namespace ridgeline::views {

QString counted(double count, const QString& one, const QString& many)
{
    return count == 1 ? one : many.arg(format::integer(count));
}

} // namespace ridgeline::views
