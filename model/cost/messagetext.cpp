// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/messagetext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

std::string messageNumber(double v)
{
    // The scenario files' formatter does the same since issue 14 (h14g): digits below 1e9, exponents as 1e12.
    return formatNumber(v);
}

std::size_t findControlCharacter(std::string_view text)
{
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f)
            return i;
        // U+0080-U+009F (C1 controls, e.g. U+009B, a one-character escape sequence start) are 0xC2 0x80-0x9F in UTF-8.
        if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80
            && static_cast<unsigned char>(text[i + 1]) <= 0x9f)
            return i;
    }
    return std::string::npos;
}

std::string currencyProblem(std::string_view currency)
{
    // Unicode characters, decoded; invalid UTF-8 decodes to U+FFFD and is refused with the invisible ones below.
    const QList<uint> ucs4 = QString::fromUtf8(currency.data(), qsizetype(currency.size())).toUcs4();
    const std::size_t characters = std::size_t(ucs4.size());
    auto blank = [](uint u) { return QChar::isSpace(char32_t(u)); }; // any Unicode space: tab, NBSP, em space ...
    // Shown as nothing or reorders what follows (adversarial trial: U+202E turned the Plan tab's label backwards, and
    // NBSP at the ends and U+200B passed): format characters, line and paragraph separators, unassigned, private use.
    auto invisible = [](uint u) {
        const QChar::Category c = QChar::category(char32_t(u));
        return c == QChar::Other_Format || c == QChar::Separator_Line || c == QChar::Separator_Paragraph
               || c == QChar::Other_Surrogate || c == QChar::Other_NotAssigned || c == QChar::Other_PrivateUse || u == 0xFFFD;
    };
    std::string why;
    if (currency.empty())
        why = "it is empty";
    else if (std::all_of(ucs4.begin(), ucs4.end(), blank))
        why = "it is blank";
    else if (findControlCharacter(currency) != std::string::npos)
        why = "it holds a control character";
    else if (const auto it = std::find_if(ucs4.begin(), ucs4.end(), invisible); it != ucs4.end()) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", *it);
        why = std::string("it holds an invisible or format character (") + code + ")";
    } else if (blank(ucs4.front()) || blank(ucs4.back()))
        why = "it starts or ends with a blank";
    else if (QChar::isMark(char32_t(ucs4.front())))
        why = "it starts with a combining mark";
    else if (characters > kMaxCurrencyCharacters)
        why = "it is " + std::to_string(characters) + " characters long";
    if (why.empty())
        return {};
    return "must name the currency in 1 to " + std::to_string(kMaxCurrencyCharacters)
           + " printable characters, no blank at either end, e.g. \"USD\" (" + why + ")";
}

std::string printableText(std::string_view text, std::size_t limit)
{
    const QString decoded = QString::fromUtf8(text.data(), qsizetype(text.size()));
    std::string out;
    std::size_t shown = 0;
    for (const char32_t u : decoded.toUcs4()) {
        if (limit > 0 && shown++ == limit) {
            out += "...";
            break;
        }
        // Control characters, and format characters such as U+202E (right-to-left override), which reversed the rest
        // of the message line in a terminal (adversarial trial, stop 31), are shown as escapes.
        if (u < 0x20 || (u >= 0x7f && u <= 0x9f) || QChar::category(u) == QChar::Other_Format) {
            char buffer[12];
            std::snprintf(buffer, sizeof buffer, u < 0x80 ? "\\x%02X" : "\\u%04X", unsigned(u));
            out += buffer;
        } else {
            out += QString::fromUcs4(&u, 1).toStdString();
        }
    }
    return out;
}

std::string jsonValueText(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Double: return messageNumber(v.toDouble());
    case QJsonValue::String: return "\"" + printableText(v.toString().toStdString()) + "\"";
    case QJsonValue::Bool: return v.toBool() ? "true" : "false";
    case QJsonValue::Null: return "null";
    case QJsonValue::Array: return printableText(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact).toStdString());
    case QJsonValue::Object: return printableText(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).toStdString());
    case QJsonValue::Undefined: break;
    }
    return "undefined";
}

} // namespace ridgeline::model
